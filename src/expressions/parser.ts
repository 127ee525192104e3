import type { BinaryOperator, Expr, ForExpr, ObjectItem } from './ast';
import { fail } from './problems';
import type { Cursor } from './scanner';
import { parseQuotedTemplate } from './template';

/** Binary operators from the loosest to the tightest binding, as HCL ranks them. */
const PRECEDENCE: ReadonlyArray<readonly BinaryOperator[]> = [['||'], ['&&'], ['==', '!='], ['<=', '>=', '<', '>'], ['+', '-'], ['*', '/', '%']];

/** Parses one expression: conditionals and everything below them. */
export function parseExpression(c: Cursor): Expr {
  c.enter();
  const start = (c.skipBlank(), c.pos);
  const condition = parseBinary(c, 0);
  let result = condition;
  if (c.eat('?')) {
    const then = parseExpression(c);
    c.expect(':', 'conditional');
    const otherwise = parseExpression(c);
    result = { kind: 'conditional', condition, then, otherwise, range: c.range(start) };
  }
  c.leave();
  return result;
}

function parseBinary(c: Cursor, level: number): Expr {
  if (level === PRECEDENCE.length) return parseUnary(c);
  const start = (c.skipBlank(), c.pos);
  let left = parseBinary(c, level + 1);
  let chain = 0;
  for (;;) {
    const op = matchOperator(c, PRECEDENCE[level]);
    if (!op) break;
    // A long chain nests the tree as deeply as parentheses would.
    c.enter();
    chain++;
    const right = parseBinary(c, level + 1);
    left = { kind: 'binary', op, left, right, range: c.range(start) };
  }
  c.leave(chain);
  return left;
}

function matchOperator(c: Cursor, ops: readonly BinaryOperator[]): BinaryOperator | undefined {
  c.skipBlank();
  for (const op of ops) {
    if (!c.startsWith(op)) continue;
    const next = c.src[c.pos + op.length] ?? '';
    if ((op === '>' || op === '<') && next === '=') continue;
    c.pos += op.length;
    return op;
  }
  return undefined;
}

function parseUnary(c: Cursor): Expr {
  c.skipBlank();
  const start = c.pos;
  const op = c.peek();
  if ((op === '!' && c.peek(1) !== '=') || op === '-') {
    c.pos++;
    c.enter();
    const operand = parseUnary(c);
    c.leave();
    if (op === '-' && operand.kind === 'literal' && typeof operand.value === 'number') return { kind: 'literal', value: -operand.value, range: c.range(start) };
    return { kind: 'unary', op, operand, range: c.range(start) };
  }
  return parsePostfix(c, parsePrimary(c), start, 'all');
}

type TraversalMode = 'all' | 'attributes' | 'full-splat';

/**
 * Attribute access, indexes and splats after a primary. After `.*` only attribute steps belong
 * to the splat; after `[*]` every step does.
 */
function parsePostfix(c: Cursor, base: Expr, start: number, mode: TraversalMode): Expr {
  let expr = base;
  let chain = 0;
  for (;;) {
    c.skipBlank();
    const stepStart = c.pos;
    let next: Expr | undefined;
    if (c.startsWith('.') && !c.startsWith('...')) {
      c.pos++;
      c.skipBlank();
      if (c.peek() === '*') {
        if (mode === 'attributes') {
          c.pos = stepStart;
          break;
        }
        c.pos++;
        next = splat(c, expr, start, 'attributes');
      } else if (/\d/.test(c.peek())) {
        if (mode === 'attributes') {
          c.pos = stepStart;
          break;
        }
        const digits = /^\d+/.exec(c.src.slice(c.pos))![0];
        c.pos += digits.length;
        next = {
          kind: 'index',
          target: expr,
          key: { kind: 'literal', value: Number(digits), range: c.range(stepStart + 1) },
          range: c.range(start),
        };
      } else {
        const name = c.identifier('attribute access');
        next = { kind: 'getattr', target: expr, name, range: c.range(start) };
      }
    } else if (c.peek() === '[' && mode !== 'attributes') {
      c.pos++;
      if (c.eat('*')) {
        c.expect(']', 'splat');
        next = splat(c, expr, start, 'full-splat');
      } else {
        const key = parseExpression(c);
        c.expect(']', 'index');
        next = { kind: 'index', target: expr, key, range: c.range(start) };
      }
    }
    if (!next) break;
    c.enter();
    chain++;
    expr = next;
  }
  c.leave(chain);
  return expr;
}

function splat(c: Cursor, source: Expr, start: number, mode: TraversalMode): Expr {
  const item: Expr = { kind: 'splatItem', range: c.range(c.pos) };
  const each = parsePostfix(c, item, c.pos, mode);
  return { kind: 'splat', source, each, range: c.range(start) };
}

function parsePrimary(c: Cursor): Expr {
  c.skipBlank();
  const start = c.pos;
  const ch = c.peek();
  if (/\d/.test(ch)) return parseNumber(c);
  if (ch === '"') {
    c.pos++;
    return parseQuotedTemplate(c, start, parseExpression);
  }
  if (ch === '(') {
    c.pos++;
    const expr = parseExpression(c);
    c.expect(')', 'parentheses');
    return { kind: 'paren', expr, range: c.range(start) };
  }
  if (ch === '[') return parseTupleOrFor(c);
  if (ch === '{') return parseObjectOrFor(c);
  if (c.startsWith('<<'))
    fail('unsupported_construct', 'heredoc', c.range(start), 'Heredoc strings are not supported inside an expression; use a quoted string with "\\n".');
  if (c.atIdentifier()) return parseName(c);
  const found = c.done ? 'the end of the expression' : `"${ch}"`;
  return fail('syntax_error', 'expression', c.range(start), `Expected an expression but found ${found}.`);
}

function parseNumber(c: Cursor): Expr {
  const start = c.pos;
  const text = /^\d+(?:\.\d+)?(?:[eE][+-]?\d+)?/.exec(c.src.slice(c.pos))![0];
  c.pos += text.length;
  return { kind: 'literal', value: Number(text), range: c.range(start) };
}

function parseName(c: Cursor): Expr {
  const start = c.pos;
  let name = c.identifier('name');
  if (name === 'true' || name === 'false') return { kind: 'literal', value: name === 'true', range: c.range(start) };
  if (name === 'null') return { kind: 'literal', value: null, range: c.range(start) };
  while (c.startsWith('::')) {
    c.pos += 2;
    name += `::${c.identifier('function name')}`;
  }
  c.skipBlank();
  if (c.peek() !== '(') {
    if (name.includes('::')) c.expect('(', 'function call');
    return { kind: 'variable', name, range: c.range(start) };
  }
  c.pos++;
  const args: Expr[] = [];
  let expandLast = false;
  while (!c.eat(')')) {
    args.push(parseExpression(c));
    if (c.eat('...')) {
      expandLast = true;
      c.eat(',');
      c.expect(')', `${name}(...)`);
      break;
    }
    if (!c.eat(',')) {
      c.expect(')', `${name}(...)`);
      break;
    }
  }
  return { kind: 'call', name, args, expandLast, range: c.range(start) };
}

/** True when `for` opens a for expression here (and is not, say, an object key named `for`). */
function atFor(c: Cursor): boolean {
  if (c.peekIdentifier() !== 'for') return false;
  const after = c.src.slice(c.pos + 3);
  return /^\s+[\p{L}_]/u.test(after);
}

function parseTupleOrFor(c: Cursor): Expr {
  const start = c.pos;
  c.pos++;
  if (atFor(c)) return parseFor(c, start, ']');
  const items: Expr[] = [];
  while (!c.eat(']')) {
    items.push(parseExpression(c));
    if (!c.eat(',')) {
      c.expect(']', 'tuple');
      break;
    }
  }
  return { kind: 'tuple', items, range: c.range(start) };
}

function parseObjectOrFor(c: Cursor): Expr {
  const start = c.pos;
  c.pos++;
  if (atFor(c)) return parseFor(c, start, '}');
  const items: ObjectItem[] = [];
  while (!c.eat('}')) {
    const keyStart = (c.skipBlank(), c.pos);
    let key = parseExpression(c);
    // A bare name as a key is the key's text, as in `{ name = "a" }`.
    if (key.kind === 'variable') key = { kind: 'literal', value: key.name, range: c.range(keyStart) };
    if (!c.eat('=') && !c.eat(':')) c.expect('=', 'object');
    const value = parseExpression(c);
    items.push({ key, value });
    c.eat(',');
  }
  return { kind: 'object', items, range: c.range(start) };
}

function parseFor(c: Cursor, start: number, close: ']' | '}'): ForExpr {
  c.identifier('for');
  let valueVar = c.identifier('for');
  let keyVar: string | undefined;
  if (c.eat(',')) {
    keyVar = valueVar;
    valueVar = c.identifier('for');
  }
  if (c.peekIdentifier() !== 'in') c.expect('in', 'for');
  c.identifier('for');
  const collection = parseExpression(c);
  c.expect(':', 'for');
  let keyExpr: Expr | undefined;
  if (close === '}') {
    keyExpr = parseExpression(c);
    c.expect('=>', 'for');
  }
  const valueExpr = parseExpression(c);
  const group = close === '}' && c.eat('...');
  let condition: Expr | undefined;
  if (c.peekIdentifier() === 'if') {
    c.identifier('if');
    condition = parseExpression(c);
  }
  c.expect(close, 'for');
  return { kind: 'for', keyVar, valueVar, collection, keyExpr, valueExpr, condition, group, range: c.range(start) };
}

/** Parses source that must be exactly one expression. */
export function parseWholeExpression(c: Cursor): Expr {
  const expr = parseExpression(c);
  c.skipBlank();
  if (!c.done) fail('syntax_error', 'expression', c.range(c.pos), `Unexpected "${c.peek()}" after the expression.`);
  return expr;
}
