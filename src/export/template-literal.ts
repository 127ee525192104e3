/**
 * Platform text written into a configuration as a literal. Terraform reads every string of a
 * configuration (HCL, Terraform JSON, and so what cdktf synthesizes) as a template, so a name
 * holding `${...}` or `%{...}` would otherwise be an expression the plan evaluates on the
 * runner: whoever may name a unit or a contact would choose what the MSP's pipeline runs.
 */

/** The template whose value is `text` itself: `${` and `%{` doubled, as Terraform's escapes are. */
export function templateLiteral(text: string): string {
  // A function replacement: in a replacement string `$$` would stand for one `$`.
  return text.replace(/[$%]\{/g, (opening) => `${opening[0]}${opening}`);
}

/**
 * An empty interpolation: it adds nothing to the value, and splits a run of text that cdktf
 * would otherwise take for one of its tokens.
 */
const SPLIT = '${""}';

/** cdktf's markers of string, list and map tokens: the text after the brace is `TfToken[`. */
const TOKEN_MARKER = /[$#&]\{(?=TfToken\[)/g;
/** The runs of text cdktf reads as encoded numbers (its own expression), each parsed with `parseFloat`. */
const NUMBER_RUN = /[-|\d|.+]+(e[-|\d|.|e|E|+]+)/g;
/** cdktf encodes a number token as a double of magnitude near 1e289 to 1e299; no text needs one. */
const TOKEN_MAGNITUDE = 1e280;

/**
 * The template whose value is `text`, for a string literal of a cdktf app. cdktf replaces, at
 * synth, any `${TfToken[...]}`, `#{TfToken[...]}` or `&{TfToken[...]}` it finds in a string
 * by the token's expression, and a run of digits that encodes a number token the same way, so
 * `templateLiteral` alone is not enough there: an empty interpolation splits each such run.
 */
export function cdktfTemplateLiteral(text: string): string {
  let out = templateLiteral(text).replace(TOKEN_MARKER, (opening) => `${opening}${SPLIT}`);
  const runs = new RegExp(NUMBER_RUN.source, 'g');
  for (let run = runs.exec(out); run; run = runs.exec(out)) {
    if (!(Math.abs(parseFloat(run[0])) >= TOKEN_MAGNITUDE)) continue;
    // Split right after the run's first `e`: what comes before is no run any more, and what
    // follows is read again as cdktf reads it.
    const split = run.index + run[0].indexOf('e') + 1;
    out = `${out.slice(0, split)}${SPLIT}${out.slice(split)}`;
    runs.lastIndex = split + SPLIT.length;
  }
  return out;
}

/** A value with every string, and every object key, made a literal by `escape`. */
export function literalValues(value: unknown, escape: (text: string) => string): unknown {
  if (typeof value === 'string') return escape(value);
  if (Array.isArray(value)) return value.map((v) => literalValues(v, escape));
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [escape(k), literalValues(v, escape)]));
  }
  return value;
}
