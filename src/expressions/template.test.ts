import type { Expr } from './ast';
import { parseTemplate } from './index';
import { run } from './testing';

function parse(source: string): Expr {
  const result = parseTemplate(source);
  if ('problem' in result) throw new Error(result.problem.message);
  return result.expr;
}

describe('templates in configuration strings', () => {
  it('keeps text without interpolations a literal, escapes processed', () => {
    expect(parse('plain text')).toMatchObject({ kind: 'literal', value: 'plain text' });
    expect(parse('$${a} %%{b} $ % {c}')).toMatchObject({ kind: 'literal', value: '${a} %{b} $ % {c}' });
    expect(parse('no \\n escapes here')).toMatchObject({ kind: 'literal', value: 'no \\n escapes here' });
    expect(parse('')).toMatchObject({ kind: 'literal', value: '' });
  });

  it('makes a string that is one interpolation a wrap, keeping the value', () => {
    expect(parse('${x}')).toMatchObject({ kind: 'wrap', expr: { kind: 'variable', name: 'x' } });
    expect(parse(' ${x}')).toMatchObject({ kind: 'template' });
  });

  it('renders interpolations and directives', () => {
    const roots = { local: { items: ['a', 'b'], on: true, map: { y: 2, x: 1 } } };
    expect(run('"n=${length(local.items)}"', roots)).toBe('n=2');
    expect(run('"%{if local.on}yes%{else}no%{endif}"', roots)).toBe('yes');
    expect(run('"%{if !local.on}yes%{endif}"', roots)).toBe('');
    expect(run('"%{for i, v in local.items}${i}${v};%{endfor}"', roots)).toBe('0a;1b;');
    expect(run('"%{for k, v in local.map}${k}=${v},%{endfor}"', roots)).toBe('x=1,y=2,');
    expect(run('"%{for v in local.items}%{if v == "b"}[${v}]%{endif}%{endfor}"', roots)).toBe('[b]');
  });

  it('strips blanks on the side of a ~ marker, newlines included', () => {
    expect(run('"a \\n ${~ "b" } c"')).toBe('ab c');
    expect(run('"a ${ "b" ~} \\n c"')).toBe('a bc');
    expect(run('"%{ for v in [1, 2] ~}\\n  ${v}\\n%{~ endfor ~}\\n"')).toBe('12');
  });

  it('processes escapes inside quoted strings of an expression', () => {
    expect(run('"\\t\\"\\\\\\u00e9\\U0001F600"')).toBe('\t"\\é😀');
    expect(parseTemplate('${"\\q"}')).toMatchObject({ problem: { code: 'syntax_error', construct: 'string escape' } });
  });

  it('reports unbalanced and unknown directives', () => {
    expect(parseTemplate('%{if x}open')).toMatchObject({ problem: { code: 'syntax_error', construct: '%{if}' } });
    expect(parseTemplate('%{for x in y}open')).toMatchObject({ problem: { code: 'syntax_error', construct: '%{for}' } });
    expect(parseTemplate('close%{endif}')).toMatchObject({ problem: { code: 'syntax_error', construct: '%{endif}' } });
    expect(parseTemplate('%{else}')).toMatchObject({ problem: { code: 'syntax_error', construct: '%{else}' } });
    expect(parseTemplate('%{while x}')).toMatchObject({ problem: { code: 'syntax_error', construct: '%{while}' } });
    expect(parseTemplate('${x')).toMatchObject({ problem: { code: 'syntax_error', construct: 'interpolation' } });
  });

  it('refuses a value that cannot be text inside a template', () => {
    expect(() => run('"x${[1]}"')).toThrow(/invalid_type/);
    expect(() => run('"x${null}"')).toThrow(/null/);
  });

  it('keeps strings in Unicode normal form C, as Terraform does', () => {
    expect(run('"e\\u0301"')).toBe('é');
  });
});
