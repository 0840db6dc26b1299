/**
 * Path globs of the config file's `exclude`, matched against paths relative to the config file's folder, with `/`
 * separators: `*` and `?` stay within one path segment, `**` spans any number of them (`dist/**` is everything below
 * dist, `**\/*.json` every JSON file). Node 20 has no glob matcher of its own (path.matchesGlob came in 22).
 */

function segmentPattern(glob: string): string {
  let out = '';
  for (const ch of glob) {
    if (ch === '*') out += '[^/]*';
    else if (ch === '?') out += '[^/]';
    else out += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return out;
}

export function globToRegExp(glob: string): RegExp {
  const parts = glob.replace(/\\/g, '/').replace(/^\.\//, '').split('/');
  let source = '';
  parts.forEach((part, i) => {
    const last = i === parts.length - 1;
    if (part === '**') source += last ? '.*' : '(?:[^/]+/)*';
    else source += segmentPattern(part) + (last ? '' : '/');
  });
  // A glob naming a folder excludes everything below it, as .gitignore reads `dist`.
  return new RegExp(`^${source}(?:/.*)?$`);
}

export function matchesAny(relativePath: string, globs: readonly RegExp[]): boolean {
  const p = relativePath.replace(/\\/g, '/');
  return globs.some((g) => g.test(p));
}
