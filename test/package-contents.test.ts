/**
 * What npm users get: the files `npm pack` puts in the package (read from its --dry-run listing, without packing).
 * README's links into docs/ must resolve inside the package; the benchmark is a development tool and stays out.
 * API.md documents the L2 constructs and the checks; the L1 types generated from the CRDs are apart, one file per
 * namespace, so that no type name appears twice in one reference.
 */
import { execFileSync } from 'child_process';
import * as fs from 'fs';
import * as path from 'path';

const REPO = path.resolve(__dirname, '..');

function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return (JSON.parse(out)[0].files as { path: string }[]).map((f) => f.path);
}

/** Relative link targets of a markdown text (no URLs, no in-page anchors), without their #fragment. */
function relativeLinks(markdown: string): string[] {
  return [...markdown.matchAll(/\]\(([^)\s]+)\)/g)].map((m) => m[1]).filter((l) => !/^[a-z]+:/.test(l) && !l.startsWith('#')).map((l) => l.replace(/#.*$/, ''));
}

describe('the npm package', () => {
  const files = packedFiles();

  test('ships docs/ (rules, error messages) and every README link into docs/', () => {
    expect(files).toEqual(expect.arrayContaining(['docs/rules.md', 'docs/error-messages.md', 'README.md', 'API.md', 'CHANGELOG.md']));
    const docLinks = relativeLinks(fs.readFileSync(path.join(REPO, 'README.md'), 'utf8')).filter((l) => l.startsWith('docs/'));
    expect(docLinks.length).toBeGreaterThan(0);
    expect(docLinks.filter((l) => !files.includes(l))).toEqual([]);
  });

  test('ships the L1 references API.md links to', () => {
    for (const link of relativeLinks(fs.readFileSync(path.join(REPO, 'API.md'), 'utf8'))) {
      expect(files).toContain(path.normalize(link));
    }
  });

  test('does not ship the benchmark, the examples or the sources', () => {
    expect(files.filter((f) => /^(bench|examples|scripts|src|test)\//.test(f))).toEqual([]);
  });
});

describe('API.md', () => {
  const api = fs.readFileSync(path.join(REPO, 'API.md'), 'utf8');

  test('names each type once: the L1 namespaces are documented in their own files', () => {
    const headings = [...api.matchAll(/^### (\S+) <a name/gm)].map((m) => m[1]);
    expect(headings.length).toBeGreaterThan(50);
    expect(headings.filter((h, i) => headings.indexOf(h) !== i)).toEqual([]);
    expect(api).not.toMatch(/id="cdk8s-linkerd\.(linkerdPolicy|gatewayApi)\./);
  });

  test('starts with the L2 constructs and links the L1 references', () => {
    expect(api).toMatch(/\[linkerdPolicy\]\(\.\/linkerdPolicy\.md\)/);
    expect(api).toMatch(/\[gatewayApi\]\(\.\/gatewayApi\.md\)/);
    const firstConstruct = /^### (\S+) <a name="[^"]+" id="([^"]+)"/m.exec(api)!;
    expect(firstConstruct[2]).toBe(`cdk8s-linkerd.${firstConstruct[1]}`);
    const l1 = fs.readFileSync(path.join(REPO, 'linkerdPolicy.md'), 'utf8');
    expect(l1).toMatch(/id="cdk8s-linkerd\.linkerdPolicy\.Server"/);
  });
});
