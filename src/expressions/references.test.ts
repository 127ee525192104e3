import { parseTemplate, referencesOf } from './index';

function references(source: string): string[] {
  const parsed = parseTemplate(source);
  if ('problem' in parsed) throw new Error(parsed.problem.message);
  return referencesOf(parsed.expr).map((r) => [r.root, ...r.steps].join('.'));
}

describe('references of an expression', () => {
  it('lists each traversal once with its static steps', () => {
    expect(references('${var.a}-${var.a}-${local.b["k"]}')).toEqual(['var.a', 'local.b.k']);
    expect(references('${data.tenantform_x.y.attr[0].name}')).toEqual(['data.tenantform_x.y.attr.0.name']);
    expect(references('${self.id} ${path.module} ${terraform.workspace}')).toEqual(['self.id', 'path.module', 'terraform.workspace']);
  });

  it('stops at a splat or a computed index, and keeps what the index reads', () => {
    expect(references('${tenantform_tenant.all[*].id}')).toEqual(['tenantform_tenant.all']);
    expect(references('${tenantform_tenant.all[each.key].id}')).toEqual(['tenantform_tenant.all', 'each.key']);
  });

  it('leaves out for-expression and directive variables but keeps what they iterate', () => {
    expect(references('${[for k, v in var.m : "${k}${v.x}${local.y}"]}')).toEqual(['var.m', 'local.y']);
    expect(references('%{for t in var.list}${t.name}${count.index}%{endfor}')).toEqual(['var.list', 'count.index']);
    expect(references('${[for t in var.list : t] } ${t.x}')).toEqual(['var.list', 't.x']);
  });

  it('finds references in every kind of expression', () => {
    expect(references('${f(a.x, [b.x], {k = c.x}, d.x ? -e.x : f.x + g.x)} %{if h.x}${i.x}%{else}${j.x}%{endif}')).toEqual([
      'a.x',
      'b.x',
      'c.x',
      'd.x',
      'e.x',
      'f.x',
      'g.x',
      'h.x',
      'i.x',
      'j.x',
    ]);
  });

  it('gives the source range of each reference', () => {
    const parsed = parseTemplate('id=${var.name}');
    if ('problem' in parsed) throw new Error(parsed.problem.message);
    expect(referencesOf(parsed.expr)[0].range).toEqual({ start: 5, end: 13 });
  });
});
