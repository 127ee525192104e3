/**
 * Text received from outside (the platform's names and messages) as it may be shown on a terminal
 * or in a report: control characters (escape sequences, carriage returns, newlines), C1 controls
 * and the bidirectional overrides are written as visible `\uXXXX` escapes, so that nothing received
 * can move the cursor, clear the screen, write the clipboard, forge a line or reorder what is read.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/g;

export function displayText(text: string): string {
  return text.replace(UNSAFE, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
