/**
 * The one string ordering of this library: by Unicode code point, which is the byte order of the strings' UTF-8
 * encoding — how Go (Linkerd, Kubernetes) compares strings. String#localeCompare and Intl's Collator follow the user's
 * locale (LC_ALL / LANG reach Node's ICU), so under `et_EE` "z" sorts before "t" and the output would change with the
 * machine that produced it.
 */

/** Maps a UTF-16 code unit so that surrogates (code points above U+FFFF) order after U+E000–U+FFFF, as in UTF-8. */
function codePointRank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  if (unit >= 0xe000) return unit - 0x800;
  return unit;
}

/** Negative, zero or positive as `a` orders before, with or after `b` in UTF-8 byte order; never locale-dependent. */
export function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return x < 0xd800 && y < 0xd800 ? x - y : codePointRank(x) - codePointRank(y);
  }
  return a.length - b.length;
}
