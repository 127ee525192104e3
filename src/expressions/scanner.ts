import { fail, MAX_DEPTH, type SourceRange } from './problems';

const IDENTIFIER_START = /[\p{L}_]/u;
const IDENTIFIER_PART = /[\p{L}\p{N}_-]/u;

/** A position in the source text with the small reading steps the parsers share. */
export class Cursor {
  pos = 0;
  private depth = 0;

  constructor(readonly src: string) {}

  get done(): boolean {
    return this.pos >= this.src.length;
  }

  peek(offset = 0): string {
    return this.src[this.pos + offset] ?? '';
  }

  startsWith(text: string): boolean {
    return this.src.startsWith(text, this.pos);
  }

  range(start: number): SourceRange {
    return { start, end: this.pos };
  }

  /** Consumes `text` when it comes next (after blanks). */
  eat(text: string): boolean {
    this.skipBlank();
    if (!this.startsWith(text)) return false;
    this.pos += text.length;
    return true;
  }

  expect(text: string, construct: string): void {
    if (!this.eat(text)) {
      const found = this.done ? 'the end of the expression' : `"${this.peek()}"`;
      fail('syntax_error', construct, this.range(this.pos), `Expected "${text}" but found ${found}.`);
    }
  }

  /** Skips spaces, newlines and comments (`#`, `//`, `/* *\/`). */
  skipBlank(): void {
    for (;;) {
      const c = this.peek();
      if (c === ' ' || c === '\t' || c === '\n' || c === '\r') this.pos++;
      else if (c === '#' || this.startsWith('//')) {
        while (!this.done && this.peek() !== '\n') this.pos++;
      } else if (this.startsWith('/*')) {
        const end = this.src.indexOf('*/', this.pos + 2);
        if (end < 0) fail('syntax_error', 'comment', this.range(this.pos), 'The comment is not closed with "*/".');
        this.pos = end + 2;
      } else return;
    }
  }

  atIdentifier(): boolean {
    this.skipBlank();
    return IDENTIFIER_START.test(this.peek());
  }

  /** The identifier that comes next, without consuming it (empty when none). */
  peekIdentifier(): string {
    this.skipBlank();
    let end = this.pos;
    if (!IDENTIFIER_START.test(this.src[end] ?? '')) return '';
    while (end < this.src.length && IDENTIFIER_PART.test(this.src[end])) end++;
    return this.src.slice(this.pos, end);
  }

  identifier(construct: string): string {
    const name = this.peekIdentifier();
    if (!name)
      fail('syntax_error', construct, this.range(this.pos), `Expected a name but found ${this.done ? 'the end of the expression' : `"${this.peek()}"`}.`);
    this.pos += name.length;
    return name;
  }

  /** Counts one level of nesting; past MAX_DEPTH the expression is refused instead of exhausting the stack. */
  enter(levels = 1): void {
    this.depth += levels;
    if (this.depth > MAX_DEPTH) fail('too_deep', 'expression', this.range(this.pos), `The expression is nested more than ${MAX_DEPTH} levels deep.`);
  }

  leave(levels = 1): void {
    this.depth -= levels;
  }
}
