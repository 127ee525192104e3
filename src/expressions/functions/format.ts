import { asBool, asNumber, asString, elementsOf, isPrimitive } from '../convert';
import { formatNumber, isKnown, toJson, UNKNOWN, type Value } from '../values';
import { callFailed, define, type Call } from './spec';

const VERB = /%([-+# 0]*)(\d+)?(?:\.(\d+))?(\[\d+\])?([a-zA-Z%])/g;

/** Go's fmt takes no width or precision above this: a larger one is refused, never filled. */
const MAX_WIDTH = 1_000_000;

/** Formats like Terraform's `format`: Go verbs %v %s %q %d %f %e %g %t %b %o %x %X %% with flags, width and precision. */
export function formatText(spec: string, args: readonly Value[], call: Call): string {
  let next = 0;
  return spec.replace(VERB, (_, flags: string, width: string | undefined, precision: string | undefined, index: string | undefined, verb: string) => {
    if (verb === '%') return '%';
    if (index) next = Number(index.slice(1, -1)) - 1;
    if (next >= args.length) callFailed(call, `not enough arguments for "%${verb}" at position ${next + 1}.`);
    for (const [what, n] of [
      ['width', width],
      ['precision', precision],
    ] as const) {
      if (n !== undefined && Number(n) > MAX_WIDTH) callFailed(call, `the ${what} ${n} of "%${verb}" is larger than ${MAX_WIDTH}.`);
    }
    const text = formatOne(args[next++], flags, precision === undefined ? undefined : Number(precision), verb, call);
    return pad(text, flags, width === undefined ? 0 : Number(width), verb);
  });
}

function formatOne(v: Value, flags: string, precision: number | undefined, verb: string, call: Call): string {
  if (v === null && verb !== 'v') callFailed(call, `unsupported value for "%${verb}": null value cannot be formatted.`);
  switch (verb) {
    case 'v':
      if (flags.includes('#')) return toJson(v);
      return v === null ? 'null' : isPrimitive(v) ? asString(v)! : toJson(v);
    case 's':
      return cut(want(asString(v), 's', call), precision);
    case 'q':
      return JSON.stringify(want(asString(v), 'q', call));
    case 't':
      return String(want(asBool(v), 't', call));
    default:
      return formatNumeric(want(asNumber(v), verb, call), flags, precision, verb, call);
  }
}

function formatNumeric(n: number, flags: string, precision: number | undefined, verb: string, call: Call): string {
  const sign = n < 0 || Object.is(n, -0) ? '-' : flags.includes('+') ? '+' : flags.includes(' ') ? ' ' : '';
  const a = Math.abs(n);
  const whole = (radix: number) => {
    if (!Number.isInteger(n)) callFailed(call, `unsupported value for "%${verb}": a whole number is required, not ${formatNumber(n)}.`);
    return BigInt(a).toString(radix);
  };
  let body: string;
  if (verb === 'd') body = whole(10);
  else if (verb === 'b') body = whole(2);
  else if (verb === 'o') body = whole(8);
  else if (verb === 'x') body = whole(16);
  else if (verb === 'X') body = whole(16).toUpperCase();
  else if (verb === 'f' || verb === 'F') body = fixed(a, precision ?? 6);
  else if (verb === 'e' || verb === 'E') {
    body = goExponent(a.toExponential(precision ?? 6));
    if (verb === 'E') body = body.toUpperCase();
  } else if (verb === 'g' || verb === 'G') {
    body = precision === undefined ? formatNumber(a) : String(Number(a.toPrecision(precision || 1)));
  } else return callFailed(call, `unsupported format verb "%${verb}".`);
  return sign + body;
}

/** Fixed-point text rounding ties to even, as Go does (2.25 with one decimal is 2.2). */
function fixed(a: number, digits: number): string {
  const scaled = a * 10 ** digits;
  const floor = Math.floor(scaled);
  if (Number.isSafeInteger(floor) && scaled - floor === 0.5 && floor % 2 === 0) return (floor / 10 ** digits).toFixed(digits);
  return a.toFixed(digits);
}

/** Go writes exponents with at least two digits: 1e+06, not 1e+6. */
function goExponent(text: string): string {
  return text.replace(/e([+-])(\d)$/, 'e$10$2');
}

function want<T>(v: T | undefined, verb: string, call: Call): T {
  if (v === undefined) callFailed(call, `unsupported value for "%${verb}".`);
  return v;
}

function cut(s: string, precision: number | undefined): string {
  return precision === undefined ? s : Array.from(s).slice(0, precision).join('');
}

function pad(text: string, flags: string, width: number, verb: string): string {
  const length = Array.from(text).length;
  if (length >= width) return text;
  const fill = width - length;
  if (flags.includes('-')) return text + ' '.repeat(fill);
  if (flags.includes('0') && /[dbfeEgGoxX]/.test(verb)) {
    const signed = /^[+\- ]/.test(text);
    return signed ? text[0] + '0'.repeat(fill) + text.slice(1) : '0'.repeat(fill) + text;
  }
  return ' '.repeat(fill) + text;
}

export const formatFunctions = {
  format: define({
    params: [['format', 'string']],
    variadic: ['args', 'any'],
    body: ([spec], args, call) => formatText(spec, args, call),
  }),
  formatlist: define({
    params: [['format', 'string']],
    variadic: ['args', 'any'],
    body: ([spec], args, call): Value => {
      const lists = args.map((a) => elementsOf(a));
      const lengths = new Set(lists.filter((l) => l !== undefined).map((l) => l.length));
      if (lengths.size > 1) callFailed(call, 'all list arguments must have the same length.');
      const count = lengths.size ? [...lengths][0] : 1;
      const rows = Array.from({ length: count }, (_, i) => args.map((a, j) => (lists[j] ? lists[j][i] : a)));
      return rows.map((row) => (row.every(isKnown) ? formatText(spec, row, call) : UNKNOWN));
    },
  }),
};
