import { RE2JS, type Matcher } from 're2js';
import { objectOf, type Value } from '../values';
import { callFailed, define, type Call } from './spec';

/**
 * A Go (RE2) pattern, compiled by an RE2 engine as Terraform's is: the same syntax (named groups
 * `(?P<name>...)`, flag groups `(?i)`), and matching in time linear in the text, so that no
 * pattern can keep a plan busy (`(a+)+$` on a long text).
 */
export function regexPattern(pattern: string, call: Call): RE2JS {
  try {
    return RE2JS.compile(pattern);
  } catch (e) {
    return callFailed(call, `invalid regular expression pattern: ${(e as Error).message}`);
  }
}

/** Named groups as an object, else the groups as a list (null where one took no part), else the match. */
function groupsOf(re: RE2JS, m: Matcher): Value {
  const names = Object.keys(re.namedGroups());
  if (names.length > 0) return objectOf(names.map((name) => [name, m.group(name)]));
  const count = m.groupCount();
  if (count > 0) return Array.from({ length: count }, (_, i) => m.group(i + 1));
  return m.group() ?? '';
}

/** Every match of `re` in `s`, in order: one matcher, moved on at each step (read it before the next). */
export function* matches(re: RE2JS, s: string): Generator<Matcher> {
  const m = re.matcher(s);
  while (m.find()) yield m;
}

/**
 * `template` with Go's expansion (`regexp.Expand`) of one match: `$1` and `${1}`, `$name` and
 * `${name}`, `$$` for a dollar sign; a group that does not exist, or took no part, is empty.
 */
export function expandGo(template: string, re: RE2JS, m: Matcher): string {
  const named = re.namedGroups();
  return template.replace(/\$(\$)|\$\{(\w+)\}|\$(\w+)/g, (_whole, dollar: string | undefined, braced: string | undefined, bare: string | undefined) => {
    if (dollar) return '$';
    const name = (braced ?? bare) as string;
    if (/^\d+$/.test(name)) return Number(name) <= m.groupCount() ? (m.group(Number(name)) ?? '') : '';
    return name in named ? (m.group(name) ?? '') : '';
  });
}

export const regexFunctions = {
  regex: define({
    params: [
      ['pattern', 'string'],
      ['string', 'string'],
    ],
    body: ([pattern, s], _, call) => {
      const re = regexPattern(pattern, call);
      const m = re.matcher(s);
      if (!m.find()) callFailed(call, 'pattern did not match any part of the given string.');
      return groupsOf(re, m);
    },
  }),
  regexall: define({
    params: [
      ['pattern', 'string'],
      ['string', 'string'],
    ],
    body: ([pattern, s], _, call) => {
      const re = regexPattern(pattern, call);
      const out: Value[] = [];
      for (const m of matches(re, s)) out.push(groupsOf(re, m));
      return out;
    },
  }),
};
