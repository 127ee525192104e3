import { asString } from '../convert';
import type { Value } from '../values';
import { formatFunctions } from './format';
import { expandGo, matches, regexFunctions, regexPattern } from './regex';
import { callFailed, define } from './spec';

/** Made when first needed: loading the break rules takes a noticeable part of a launch. */
let graphemeSegmenter: Intl.Segmenter | undefined;

/** Characters handed to the segmenter at once: each of its steps costs time in proportion to the text it was given. */
const GRAPHEME_WINDOW = 256;

/** Between two ASCII characters there is always a break, but for CR LF: no rule joins them. */
function certainBreakAt(s: string, i: number): boolean {
  return s.charCodeAt(i - 1) < 0x80 && s.charCodeAt(i) < 0x80 && !(s[i - 1] === '\r' && s[i] === '\n');
}

/**
 * The user-perceived characters of a string, as Terraform counts them in length and substr.
 * V8's segmenter takes time in proportion to its whole text at each step, so runs of ASCII are
 * split without it, and the rest is segmented a window at a time: a break depends only on the
 * text before it and the character after, so every break but a window's last is final.
 */
export function graphemes(s: string): string[] {
  const found: string[] = [];
  let start = 0;
  while (start < s.length) {
    if (start + 1 === s.length || certainBreakAt(s, start + 1)) {
      found.push(s[start]);
      start++;
      continue;
    }
    let end = start + 1;
    while (end < s.length && !certainBreakAt(s, end)) end++;
    for (const g of segmentedInWindows(s.slice(start, end))) found.push(g);
    start = end;
  }
  return found;
}

function segmentedInWindows(s: string): string[] {
  graphemeSegmenter ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  const found: string[] = [];
  let start = 0;
  let window = GRAPHEME_WINDOW;
  while (start < s.length) {
    let end = Math.min(s.length, start + window);
    // A window never splits a surrogate pair: half a character would read as a break before it.
    if (end < s.length && isHighSurrogate(s.charCodeAt(end - 1))) end++;
    const segments = Array.from(graphemeSegmenter.segment(s.slice(start, end)), (g) => g.segment);
    if (end < s.length) {
      // One character longer than the window: widened until the window holds more than it.
      if (segments.length === 1) {
        window *= 2;
        continue;
      }
      segments.pop();
    }
    for (const g of segments) {
      found.push(g);
      start += g.length;
    }
    window = GRAPHEME_WINDOW;
  }
  return found;
}

function isHighSurrogate(code: number): boolean {
  return code >= 0xd800 && code <= 0xdbff;
}

/** Case mapping one character at a time, as Go does: "ß" stays "ß" in upper case instead of becoming "SS". */
function perCharacter(s: string, map: (c: string) => string): string {
  return Array.from(s, (c) => {
    const mapped = map(c);
    return Array.from(mapped).length === 1 ? mapped : c;
  }).join('');
}

function trimSet(s: string, cutset: string, fromStart: boolean, fromEnd: boolean): string {
  const cut = new Set(Array.from(cutset));
  const chars = Array.from(s);
  let start = 0;
  let end = chars.length;
  while (fromStart && start < end && cut.has(chars[start])) start++;
  while (fromEnd && end > start && cut.has(chars[end - 1])) end--;
  return chars.slice(start, end).join('');
}

export const stringFunctions = {
  ...formatFunctions,
  ...regexFunctions,
  lower: define({
    params: [['str', 'string']],
    body: ([s]) => perCharacter(s, (c) => c.toLowerCase()),
  }),
  upper: define({
    params: [['str', 'string']],
    body: ([s]) => perCharacter(s, (c) => c.toUpperCase()),
  }),
  title: define({
    params: [['str', 'string']],
    body: ([s]) => s.replace(/(^|[^\p{L}\p{N}_])(\p{L})/gu, (_, before: string, letter: string) => before + letter.toUpperCase()),
  }),
  trimspace: define({
    params: [['str', 'string']],
    body: ([s]) => s.replace(/^[\s\u0085]+|[\s\u0085]+$/gu, ''),
  }),
  trim: define({
    params: [
      ['str', 'string'],
      ['cutset', 'string'],
    ],
    body: ([s, cutset]) => trimSet(s, cutset, true, true),
  }),
  trimprefix: define({
    params: [
      ['str', 'string'],
      ['prefix', 'string'],
    ],
    body: ([s, p]) => (s.startsWith(p) ? s.slice(p.length) : s),
  }),
  trimsuffix: define({
    params: [
      ['str', 'string'],
      ['suffix', 'string'],
    ],
    body: ([s, p]) => (p && s.endsWith(p) ? s.slice(0, s.length - p.length) : s),
  }),
  chomp: define({
    params: [['str', 'string']],
    body: ([s]) => s.replace(/(?:\r\n|\n|\r)+$/, ''),
  }),
  strrev: define({
    params: [['str', 'string']],
    body: ([s]) => graphemes(s).reverse().join(''),
  }),
  strcontains: define({
    params: [
      ['str', 'string'],
      ['substr', 'string'],
    ],
    body: ([s, part]) => s.includes(part),
  }),
  indent: define({
    params: [
      ['spaces', 'number'],
      ['str', 'string'],
    ],
    body: ([spaces, s]) => s.replace(/\n/g, `\n${' '.repeat(Math.max(0, spaces))}`),
  }),
  startswith: define({
    params: [
      ['str', 'string'],
      ['prefix', 'string'],
    ],
    body: ([s, p]) => s.startsWith(p),
  }),
  endswith: define({
    params: [
      ['str', 'string'],
      ['suffix', 'string'],
    ],
    body: ([s, p]) => s.endsWith(p),
  }),
  substr: define({
    params: [
      ['str', 'string'],
      ['offset', 'number'],
      ['length', 'number'],
    ],
    body: ([s, offset, length], _, call) => {
      const chars = graphemes(s);
      if (!Number.isInteger(offset) || !Number.isInteger(length)) callFailed(call, 'offset and length must be whole numbers.');
      let start = offset < 0 ? chars.length + offset : offset;
      if (start < 0) start = 0;
      if (start > chars.length) return '';
      const end = length < 0 ? chars.length : Math.min(chars.length, start + length);
      return chars.slice(start, end).join('');
    },
  }),
  replace: define({
    params: [
      ['str', 'string'],
      ['substr', 'string'],
      ['replace', 'string'],
    ],
    body: ([s, search, replacement], _, call) => {
      if (search.length > 1 && search.startsWith('/') && search.endsWith('/')) {
        const re = regexPattern(search.slice(1, -1), call);
        let out = '';
        let from = 0;
        for (const m of matches(re, s)) {
          out += s.slice(from, m.start()) + expandGo(replacement, re, m);
          from = m.end();
        }
        return out + s.slice(from);
      }
      // An empty search text matches before every character and at the end, as in Go.
      if (search === '') return replacement + Array.from(s, (c) => c + replacement).join('');
      return s.split(search).join(replacement);
    },
  }),
  join: define({
    params: [['separator', 'string']],
    variadic: ['lists', 'list'],
    body: ([separator], lists, call) => {
      if (lists.length === 0) callFailed(call, 'at least one list is required.');
      const items = lists.flat();
      return items
        .map((item) => {
          const text = item === null ? undefined : asString(item);
          if (text === undefined) callFailed(call, `every element must be a string, not ${item === null ? 'null' : typeof item}.`);
          return text;
        })
        .join(separator);
    },
  }),
  split: define({
    params: [
      ['separator', 'string'],
      ['str', 'string'],
    ],
    body: ([separator, s]): Value => (separator === '' ? Array.from(s) : s.split(separator)),
  }),
};
