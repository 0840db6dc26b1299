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

/** The listing as `npm pack` makes it, prepack included (it keeps the bundled dependencies' unloaded files out). */
function packedFiles(): string[] {
  const out = execFileSync('npm', ['pack', '--dry-run', '--json'], { cwd: REPO, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  const json = out.slice(out.search(/^\[/m));
  return (JSON.parse(json)[0].files as { path: string }[]).map((f) => f.path);
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

  test('ships the config file schema; the Action and the pre-commit hook stay in the repository', () => {
    expect(files).toContain('schemas/cdk8s-linkerd-config.schema.json');
    expect(files).not.toContain('action.yml');
    expect(files).not.toContain('.pre-commit-hooks.yaml');
  });

  test('leaves out what the bundled dependencies ship but nothing loads (test data, ES module and browser builds)', () => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const { UNLOADED } = require('../scripts/prune-bundled.js') as { UNLOADED: string[] };
    for (const dir of UNLOADED) expect(files.filter((f) => f.startsWith(`${dir}/`))).toEqual([]);
    // What the bundled code requires, from the packed files only, resolves inside the package: nothing left out is loaded.
    const packed = new Set(files);
    const missing: string[] = [];
    for (const file of files.filter((f) => f.startsWith('node_modules/') && f.endsWith('.js'))) {
      const text = fs.readFileSync(path.join(REPO, file), 'utf8');
      for (const m of text.matchAll(/require\("(\.{1,2}\/[^"]+)"\)/g)) {
        const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), m[1]));
        const candidates = [target, `${target}.js`, `${target}/index.js`];
        if (!candidates.some((c) => packed.has(c))) missing.push(`${file} -> ${m[1]}`);
      }
    }
    // js-yaml's command-line tool (bin/) is packed but not run; its requires are checked like the rest.
    expect(missing).toEqual([]);
    const cel = files.filter((f) => f.startsWith('node_modules/@bufbuild/cel/dist/cjs/') && f.endsWith('.js'));
    const specs = cel.flatMap((f) => [...fs.readFileSync(path.join(REPO, f), 'utf8').matchAll(/require\("(@bufbuild\/cel-spec[^"]*)"\)/g)].map((m) => m[1]));
    expect(specs.length).toBeGreaterThan(0);
    const celDir = path.join(REPO, 'node_modules', '@bufbuild', 'cel');
    for (const spec of specs) expect(packed).toContain(path.relative(REPO, require.resolve(spec, { paths: [celDir] })).split(path.sep).join('/'));
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
