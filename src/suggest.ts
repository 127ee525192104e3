/**
 * The name a misspelled one most likely meant: the same name in snake_case (a cdktf prop written
 * where an attribute is named), the one name that only adds a suffix to it (`role` for
 * `role_id`), else the nearest by edit distance, when near enough to be a typo.
 */
export function closestName(name: string, candidates: readonly string[]): string | undefined {
  const snake = name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
  if (candidates.includes(snake)) return snake;
  const extended = candidates.filter((c) => c.startsWith(`${snake}_`));
  if (extended.length === 1) return extended[0];
  let best: string | undefined;
  let bestDistance = Math.max(2, Math.floor(name.length / 3)) + 1;
  for (const candidate of candidates) {
    const d = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

/** Levenshtein distance, one row at a time. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) row[j] = Math.min(previous[j] + 1, row[j - 1] + 1, previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
    previous = row;
  }
  return previous[b.length];
}
