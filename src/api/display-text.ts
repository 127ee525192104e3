/**
 * Text received from outside (the platform's names and messages) as it may be shown on a terminal
 * or in a report: control characters (escape sequences, carriage returns, newlines), C1 controls
 * and the bidirectional overrides are written as visible `\uXXXX` escapes, so that nothing received
 * can move the cursor, clear the screen, write the clipboard, forge a line or reorder what is read.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function displayText(text: string): string {
  return text.replace(UNSAFE, unicodeEscape);
}

/** `\uXXXX` of one character: the escape JSON and HCL strings both read. */
export function unicodeEscape(c: string): string {
  return `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** The characters `displayText` escapes, for writers with escapes of their own (a `g` expression). */
export const UNSAFE_CHARACTERS = UNSAFE;

/**
 * A JSON document with every character `displayText` escapes written as `\uXXXX`: the same
 * value, read by any JSON reader, but nothing in it that a terminal or a review page acts on.
 * (JSON.stringify escapes the C0 controls itself, not DEL, C1 or the bidirectional marks.)
 */
export function jsonText(value: unknown, indent?: number): string {
  return JSON.stringify(value, null, indent).replace(UNESCAPED_BY_JSON, unicodeEscape);
}

/** What JSON.stringify leaves as it is of UNSAFE (the C0 controls inside strings it escapes; outside, they are the layout). */
const UNESCAPED_BY_JSON = /[\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;
