/**
 * Positions in a list, kept ascending. Code that picks, for each item, the earlier items of a few groups (a namespace's
 * routes and the producer routes) merges the groups' positions instead of filtering the whole list again for each item,
 * which would grow with the square of the list.
 */

/** Two ascending lists of positions as one ascending list; a position in both is listed once. */
export function mergeAscending(a: readonly number[], b: readonly number[]): number[] {
  const out: number[] = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    const next = j >= b.length || (i < a.length && a[i] <= b[j]) ? a[i] : b[j];
    out.push(next);
    if (i < a.length && a[i] === next) i++;
    if (j < b.length && b[j] === next) j++;
  }
  return out;
}
