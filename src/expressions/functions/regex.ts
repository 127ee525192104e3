import { objectOf, type Value } from '../values';
import { callFailed, define, type Call } from './spec';

/**
 * A Go (RE2) pattern as a JavaScript RegExp: named groups `(?P<name>...)` and leading flag
 * groups `(?i)`, `(?s)`, `(?m)` are translated; other RE2-only syntax is refused.
 */
export function regexPattern(pattern: string, call: Call, extraFlags = ''): RegExp {
  let source = pattern.replace(/\(\?P</g, '(?<');
  let flags = `u${extraFlags}`;
  const leading = /^\(\?([ims]+)\)/.exec(source);
  if (leading) {
    flags += [...new Set(leading[1])].join('');
    source = source.slice(leading[0].length);
  }
  try {
    return new RegExp(source, flags);
  } catch (e) {
    return callFailed(call, `invalid regular expression pattern: ${(e as Error).message}`);
  }
}

function groupsOf(match: RegExpExecArray): Value {
  if (match.groups) return objectOf(Object.entries(match.groups).map(([k, v]) => [k, v ?? null]));
  if (match.length > 1) return match.slice(1).map((g) => g ?? null);
  return match[0];
}

export const regexFunctions = {
  regex: define({
    params: [
      ['pattern', 'string'],
      ['string', 'string'],
    ],
    body: ([pattern, s], _, call) => {
      const match = regexPattern(pattern, call).exec(s);
      if (!match) callFailed(call, 'pattern did not match any part of the given string.');
      return groupsOf(match);
    },
  }),
  regexall: define({
    params: [
      ['pattern', 'string'],
      ['string', 'string'],
    ],
    body: ([pattern, s], _, call) => [...s.matchAll(regexPattern(pattern, call, 'g'))].map((m) => groupsOf(m as RegExpExecArray)),
  }),
};
