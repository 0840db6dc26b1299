/** The tool's own version and home page, read from this package's package.json wherever the code is installed. */
import * as fs from 'fs';
import * as path from 'path';

const PACKAGE_NAME = 'cdk8s-linkerd';
const FALLBACK_URI = 'https://github.com/maintainers/cdk8s-linkerd';

export interface PackageInfo {
  readonly version: string;
  readonly informationUri: string;
  /** package.json `homepage`: the rule documentation every finding links to. */
  readonly homepage: string;
}

const FALLBACK_HOMEPAGE = `${FALLBACK_URI}/blob/main/docs/rules.md`;

function readPackageJson(dir: string): any {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
  } catch {
    return undefined;
  }
}

function homePage(pkg: any): string {
  const url = typeof pkg.repository === 'string' ? pkg.repository : pkg.repository?.url;
  return typeof url === 'string' ? url.replace(/^git\+/, '').replace(/\.git$/, '') : FALLBACK_URI;
}

/** Walks up from the compiled file (lib/frontends/cli) to the package root; a copy built elsewhere reports 0.0.0. */
export function packageInfo(start: string = __dirname): PackageInfo {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const pkg = readPackageJson(dir);
    if (pkg?.name === PACKAGE_NAME) {
      const homepage = typeof pkg.homepage === 'string' ? pkg.homepage : FALLBACK_HOMEPAGE;
      return { version: String(pkg.version ?? '0.0.0'), informationUri: homePage(pkg), homepage };
    }
    if (path.dirname(dir) === dir) return { version: '0.0.0', informationUri: FALLBACK_URI, homepage: FALLBACK_HOMEPAGE };
  }
}
