import type { Expr } from './ast';
import { parseExpression } from './index';

function parse(source: string): Expr {
  const result = parseExpression(source);
  if ('problem' in result) throw new Error(result.problem.message);
  return result.expr;
}

/** The tree as compact text, to compare shapes. */
function shape(e: Expr): string {
  switch (e.kind) {
    case 'literal':
      return JSON.stringify(e.value);
    case 'variable':
      return e.name;
    case 'binary':
      return `(${shape(e.left)} ${e.op} ${shape(e.right)})`;
    case 'unary':
      return `(${e.op}${shape(e.operand)})`;
    case 'conditional':
      return `(${shape(e.condition)} ? ${shape(e.then)} : ${shape(e.otherwise)})`;
    case 'getattr':
      return `${shape(e.target)}.${e.name}`;
    case 'index':
      return `${shape(e.target)}[${shape(e.key)}]`;
    case 'splat':
      return `splat(${shape(e.source)}, ${shape(e.each)})`;
    case 'splatItem':
      return '@';
    case 'paren':
      return shape(e.expr);
    case 'call':
      return `${e.name}(${e.args.map(shape).join(', ')}${e.expandLast ? '...' : ''})`;
    case 'tuple':
      return `[${e.items.map(shape).join(', ')}]`;
    case 'object':
      return `{${e.items.map((i) => `${shape(i.key)}=${shape(i.value)}`).join(', ')}}`;
    case 'for':
      return `for(${e.keyVar ?? ''},${e.valueVar} in ${shape(e.collection)}: ${e.keyExpr ? `${shape(e.keyExpr)} => ` : ''}${shape(
        e.valueExpr,
      )}${e.group ? '...' : ''}${e.condition ? ` if ${shape(e.condition)}` : ''})`;
    default:
      return e.kind;
  }
}

describe('the expression parser', () => {
  it('binds operators with HCL precedence, left to right within a level', () => {
    expect(shape(parse('1 + 2 * 3'))).toBe('(1 + (2 * 3))');
    expect(shape(parse('10 - 2 - 3'))).toBe('((10 - 2) - 3)');
    expect(shape(parse('a || b && c == d < e + f * g'))).toBe('(a || (b && (c == (d < (e + (f * g))))))');
    expect(shape(parse('!a && -b'))).toBe('((!a) && (-b))');
    expect(shape(parse('a ? b : c ? d : e'))).toBe('(a ? b : (c ? d : e))');
    expect(shape(parse('a >= 1 != b <= 2'))).toBe('((a >= 1) != (b <= 2))');
  });

  it('folds a minus sign into a number literal', () => {
    expect(parse('-1.5')).toMatchObject({ kind: 'literal', value: -1.5 });
  });

  it('reads attribute access, indexes and legacy numeric indexes', () => {
    expect(shape(parse('tenantform_tenant.a[0].id'))).toBe('tenantform_tenant.a[0].id');
    expect(shape(parse('local.list.1.name'))).toBe('local.list[1].name');
    expect(shape(parse('data.x.y["k"]'))).toBe('data.x.y["k"]');
  });

  it('gives a full splat every later step and an attribute splat only attributes', () => {
    expect(shape(parse('a[*].b[0]'))).toBe('splat(a, @.b[0])');
    expect(shape(parse('a.*.b[0]'))).toBe('splat(a, @.b)[0]');
    expect(shape(parse('a[*]'))).toBe('splat(a, @)');
  });

  it('reads function calls, namespaced names and the expansion of the last argument', () => {
    expect(shape(parse('merge(a, {x = 1},)'))).toBe('merge(a, {"x"=1})');
    expect(shape(parse('concat(local.lists...)'))).toBe('concat(local.lists...)');
    expect(shape(parse('provider::tenantform::thing(1)'))).toBe('provider::tenantform::thing(1)');
  });

  it('reads tuples and objects across lines, with either separator and bare or computed keys', () => {
    expect(shape(parse('[\n 1,\n 2,\n]'))).toBe('[1, 2]');
    expect(shape(parse('{\n a = 1\n "b": 2, (k) = 3 }'))).toBe('{"a"=1, "b"=2, k=3}');
  });

  it('reads for expressions with keys, conditions and grouping', () => {
    expect(shape(parse('[for v in xs : v]'))).toBe('for(,v in xs: v)');
    expect(shape(parse('{for k, v in m : v => k... if k != "a"}'))).toBe('for(k,v in m: v => k... if (k != "a"))');
    expect(shape(parse('{ for = 1 }'))).toBe('{"for"=1}');
  });

  it('skips comments', () => {
    expect(shape(parse('1 + # one\n 2 /* two */ + // three\n 3'))).toBe('((1 + 2) + 3)');
  });

  it('reports a syntax error with the place it happened', () => {
    expect(parseExpression('1 +')).toMatchObject({ problem: { code: 'syntax_error', range: { start: 3 } } });
    expect(parseExpression('f(1')).toMatchObject({ problem: { code: 'syntax_error', construct: 'f(...)' } });
    expect(parseExpression('[for x in y]')).toMatchObject({ problem: { code: 'syntax_error', construct: 'for' } });
    expect(parseExpression('1 2')).toMatchObject({ problem: { code: 'syntax_error', range: { start: 2 } } });
    expect(parseExpression('"open')).toMatchObject({ problem: { code: 'syntax_error', construct: 'string' } });
  });

  it('refuses heredocs as an unsupported construct', () => {
    expect(parseExpression('<<EOT\nx\nEOT')).toMatchObject({ problem: { code: 'unsupported_construct', construct: 'heredoc' } });
  });

  it('refuses nesting past the limit as too deep instead of overflowing the stack', () => {
    expect(parseExpression('!'.repeat(100000) + 'true')).toMatchObject({ problem: { code: 'too_deep' } });
    expect(parseExpression('f('.repeat(10000) + ')'.repeat(10000))).toMatchObject({ problem: { code: 'too_deep' } });
    expect(parseExpression('{a = '.repeat(10000) + '1' + '}'.repeat(10000))).toMatchObject({ problem: { code: 'too_deep' } });
    expect(parseExpression('"${'.repeat(5000) + '1' + '}"'.repeat(5000))).toMatchObject({ problem: { code: 'too_deep' } });
  });

  it('accepts nesting within the limit', () => {
    expect(parseExpression('('.repeat(100) + '1' + ')'.repeat(100))).toHaveProperty('expr');
  });
});
