import type { Expr, TemplatePart } from './ast';
import { fail, type SourceRange } from './problems';
import { Cursor } from './scanner';

/**
 * Templates: literal text with `${expr}` interpolations and `%{if}` / `%{for}` directives.
 * `$${` and `%%{` stand for the literal text `${` and `%{`; a `~` next to the braces strips
 * the blanks on that side. A template that is one interpolation alone keeps the value's type.
 */

type DirectiveName = 'if' | 'else' | 'endif' | 'for' | 'endfor';

/**
 * Parses the expression at the cursor. Given by the caller: expressions hold templates and
 * templates hold expressions, and the parser passes itself in rather than being imported back.
 */
export type ExpressionParser = (c: Cursor) => Expr;

type Token =
  | { readonly kind: 'text'; text: string }
  | {
      readonly kind: 'interpolation';
      readonly expr: Expr;
      readonly stripBefore: boolean;
      readonly stripAfter: boolean;
      readonly range: SourceRange;
    }
  | {
      readonly kind: 'directive';
      readonly name: DirectiveName;
      readonly expr?: Expr;
      readonly keyVar?: string;
      readonly valueVar?: string;
      readonly stripBefore: boolean;
      readonly stripAfter: boolean;
      readonly range: SourceRange;
    };

/** Parses a whole string as a template (the string values of a Terraform JSON configuration). */
export function parseStringTemplate(source: string, parseExpression: ExpressionParser): Expr {
  const c = new Cursor(source);
  return buildTemplate(c, scanTokens(c, false, parseExpression), 0);
}

/** Parses a quoted string inside an expression; the cursor is just after the opening quote. */
export function parseQuotedTemplate(c: Cursor, start: number, parseExpression: ExpressionParser): Expr {
  return buildTemplate(c, scanTokens(c, true, parseExpression), start);
}

function buildTemplate(c: Cursor, tokens: Token[], start: number): Expr {
  const range = c.range(start);
  if (tokens.length === 1 && tokens[0].kind === 'interpolation') return { kind: 'wrap', expr: tokens[0].expr, range };
  if (tokens.every((t) => t.kind === 'text')) return { kind: 'literal', value: tokens.map((t) => (t as { text: string }).text).join(''), range };
  stripBlanks(tokens);
  const built = buildParts(c, tokens, 0, []);
  if (built.next < tokens.length) {
    const extra = tokens[built.next] as Extract<Token, { kind: 'directive' }>;
    fail('syntax_error', `%{${extra.name}}`, extra.range, `"%{${extra.name}}" has no matching opening directive.`);
  }
  return { kind: 'template', parts: built.parts, range };
}

function scanTokens(c: Cursor, quoted: boolean, parseExpression: ExpressionParser): Token[] {
  const tokens: Token[] = [];
  let text = '';
  const flushText = () => {
    // Terraform keeps every string in Unicode normal form C.
    if (text) tokens.push({ kind: 'text', text: text.normalize('NFC') });
    text = '';
  };
  for (;;) {
    if (c.done) {
      if (quoted) fail('syntax_error', 'string', c.range(c.pos), 'The quoted string is not closed.');
      break;
    }
    if (quoted && c.peek() === '"') {
      c.pos++;
      break;
    }
    if (c.startsWith('$${') || c.startsWith('%%{')) {
      text += c.src.slice(c.pos + 1, c.pos + 3);
      c.pos += 3;
    } else if (c.startsWith('${') || c.startsWith('%{')) {
      flushText();
      tokens.push(c.peek() === '$' ? scanInterpolation(c, parseExpression) : scanDirective(c, parseExpression));
    } else if (quoted && c.peek() === '\\') {
      text += scanEscape(c);
    } else if (quoted && c.peek() === '\n') {
      fail('syntax_error', 'string', c.range(c.pos), 'A quoted string cannot span lines; use "\\n".');
    } else {
      text += c.peek();
      c.pos++;
    }
  }
  flushText();
  return tokens;
}

function scanInterpolation(c: Cursor, parseExpression: ExpressionParser): Token {
  const start = c.pos;
  c.pos += 2;
  const stripBefore = c.startsWith('~');
  if (stripBefore) c.pos++;
  const expr = parseExpression(c);
  const stripAfter = c.eat('~');
  c.expect('}', 'interpolation');
  return { kind: 'interpolation', expr, stripBefore, stripAfter, range: c.range(start) };
}

function scanDirective(c: Cursor, parseExpression: ExpressionParser): Token {
  const start = c.pos;
  c.pos += 2;
  const stripBefore = c.startsWith('~');
  if (stripBefore) c.pos++;
  const name = c.identifier('directive');
  let expr: Expr | undefined;
  let keyVar: string | undefined;
  let valueVar: string | undefined;
  if (name === 'if') expr = parseExpression(c);
  else if (name === 'for') {
    valueVar = c.identifier('%{for}');
    if (c.eat(',')) {
      keyVar = valueVar;
      valueVar = c.identifier('%{for}');
    }
    if (c.identifier('%{for}') !== 'in') fail('syntax_error', '%{for}', c.range(start), 'Expected "in" after the variables of %{for}.');
    expr = parseExpression(c);
  } else if (name !== 'else' && name !== 'endif' && name !== 'endfor')
    fail('syntax_error', `%{${name}}`, c.range(start), `"${name}" is not a template directive; use if, else, endif, for or endfor.`);
  const stripAfter = c.eat('~');
  c.expect('}', `%{${name}}`);
  return { kind: 'directive', name: name, expr, keyVar, valueVar, stripBefore, stripAfter, range: c.range(start) };
}

const SIMPLE_ESCAPES: Record<string, string> = { n: '\n', r: '\r', t: '\t', '"': '"', '\\': '\\' };

function scanEscape(c: Cursor): string {
  const start = c.pos;
  const kind = c.peek(1);
  if (kind in SIMPLE_ESCAPES) {
    c.pos += 2;
    return SIMPLE_ESCAPES[kind];
  }
  const digits = kind === 'u' ? 4 : kind === 'U' ? 8 : 0;
  const hex = c.src.slice(c.pos + 2, c.pos + 2 + digits);
  if (digits && /^[0-9a-fA-F]+$/.test(hex) && hex.length === digits) {
    const code = parseInt(hex, 16);
    if (code <= 0x10ffff && (code < 0xd800 || code > 0xdfff)) {
      c.pos += 2 + digits;
      return String.fromCodePoint(code);
    }
  }
  return fail(
    'syntax_error',
    'string escape',
    { start, end: start + 2 },
    `"\\${kind}" is not a valid escape; use \\n, \\r, \\t, \\", \\\\, \\uNNNN or \\UNNNNNNNN.`,
  );
}

/** Applies `~`: blanks on the marked side of an interpolation or directive are removed. */
function stripBlanks(tokens: Token[]): void {
  tokens.forEach((t, i) => {
    if (t.kind === 'text') return;
    const before = tokens[i - 1];
    const after = tokens[i + 1];
    if (t.stripBefore && before?.kind === 'text') before.text = before.text.replace(/[ \t\r\n]+$/, '');
    if (t.stripAfter && after?.kind === 'text') after.text = after.text.replace(/^[ \t\r\n]+/, '');
  });
}

interface Built {
  readonly parts: TemplatePart[];
  readonly next: number;
}

/** Builds parts from tokens[from] up to (not including) a directive named in `until`. */
function buildParts(c: Cursor, tokens: Token[], from: number, until: readonly DirectiveName[]): Built {
  const parts: TemplatePart[] = [];
  let i = from;
  while (i < tokens.length) {
    const t = tokens[i];
    if (t.kind === 'text') parts.push({ kind: 'text', text: t.text });
    else if (t.kind === 'interpolation') parts.push({ kind: 'interpolation', expr: t.expr, range: t.range });
    else if (until.includes(t.name)) return { parts, next: i };
    else if (t.name === 'if' || t.name === 'for') {
      c.enter();
      const built = t.name === 'if' ? buildIf(c, tokens, i) : buildFor(c, tokens, i);
      c.leave();
      parts.push(built.part);
      i = built.next;
      continue;
    } else return { parts, next: i };
    i++;
  }
  return { parts, next: i };
}

function buildIf(c: Cursor, tokens: Token[], at: number): { part: TemplatePart; next: number } {
  const open = tokens[at] as Extract<Token, { kind: 'directive' }>;
  const then = buildParts(c, tokens, at + 1, ['else', 'endif']);
  let otherwise: TemplatePart[] = [];
  let next = then.next;
  if (isDirective(tokens[next], 'else')) {
    const built = buildParts(c, tokens, next + 1, ['endif']);
    otherwise = built.parts;
    next = built.next;
  }
  if (!isDirective(tokens[next], 'endif')) fail('syntax_error', '%{if}', open.range, '"%{if}" has no matching "%{endif}".');
  return { part: { kind: 'if', condition: open.expr!, then: then.parts, otherwise, range: open.range }, next: next + 1 };
}

function buildFor(c: Cursor, tokens: Token[], at: number): { part: TemplatePart; next: number } {
  const open = tokens[at] as Extract<Token, { kind: 'directive' }>;
  const body = buildParts(c, tokens, at + 1, ['endfor']);
  if (!isDirective(tokens[body.next], 'endfor')) fail('syntax_error', '%{for}', open.range, '"%{for}" has no matching "%{endfor}".');
  return {
    part: { kind: 'for', keyVar: open.keyVar, valueVar: open.valueVar!, collection: open.expr!, body: body.parts, range: open.range },
    next: body.next + 1,
  };
}

function isDirective(t: Token | undefined, name: DirectiveName): boolean {
  return t?.kind === 'directive' && t.name === name;
}
