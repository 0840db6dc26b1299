/**
 * The fast block reader is only allowed to answer when it answers exactly what js-yaml answers (documents, key order,
 * start lines, YAML 1.1 readings); otherwise it must decline, and js-yaml reads the text. Held to that on every YAML
 * file in the repository and ../shared, on generated texts written the way cdk8s, js-yaml and PyYAML write them,
 * and on those texts mutated at random, where it must also decline whatever js-yaml refuses.
 */
import * as fs from 'fs';
import * as path from 'path';
import { isDeepStrictEqual } from 'util';
import { Yaml } from 'cdk8s';
import * as fc from 'fast-check';
import * as yaml from 'js-yaml';
import { readBlockYaml, LoadedDocuments } from '../../src/frontends/cli/block-yaml';
import { countedExpansion, loadWithListener, parseManifests, walkedExpansion } from '../../src/frontends/cli/load-manifests';
import { sharedAvailable, SHARED_DIR } from '../support/shared';

const REPO = path.resolve(__dirname, '..', '..');

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const name of fs.readdirSync(dir).sort()) {
    if (name === 'node_modules' || name.startsWith('.') || name === 'coverage') continue;
    const full = path.join(dir, name);
    if (fs.statSync(full).isDirectory()) yamlFiles(full, out);
    else if (/\.(ya?ml|json)$/.test(name)) out.push(full);
  }
  return out;
}

/** js-yaml's reading, or the error it throws. */
function reference(text: string): LoadedDocuments | Error {
  try {
    return loadWithListener(text, 'f.yaml');
  } catch (e: any) {
    return e;
  }
}

/** Equal as data (NaN, -0), in key order, with the same lines and readings. */
function same(a: LoadedDocuments, b: LoadedDocuments): boolean {
  return isDeepStrictEqual(a.docs, b.docs) && JSON.stringify(a.docs) === JSON.stringify(b.docs)
    && isDeepStrictEqual(a.lines, b.lines) && isDeepStrictEqual([...a.readings], [...b.readings]);
}

/**
 * The alias-bomb guard reads the reader's counts instead of walking its documents: they must give the walk's numbers,
 * and a document the reader records no alias for must share no node (every node counted once).
 */
function countsAgree(fast: LoadedDocuments, text: string): void {
  fast.docs.forEach((doc, i) => {
    const walked = walkedExpansion(doc);
    const counted = fast.aliases!.get(i);
    const expected = typeof doc === 'object' && doc !== null ? { expanded: walked.expanded, distinct: walked.expanded } : { expanded: 1, distinct: 0 };
    if (!isDeepStrictEqual(counted ? countedExpansion(counted) : expected, walked)) {
      throw new Error(`document ${i}: counted ${JSON.stringify(counted && countedExpansion(counted))}, walked ${JSON.stringify(walked)}:\n${text}`);
    }
  });
}

/** The property every text must have; returns whether the fast reader answered (for coverage counts). */
function agrees(text: string): boolean {
  const fast = readBlockYaml(text);
  if (fast === undefined) return false;
  const ref = reference(text);
  if (ref instanceof Error) throw new Error(`the block reader accepted a text js-yaml refuses (${ref.message}):\n${text}`);
  if (!same(fast, ref)) {
    throw new Error(`the block reader differs from js-yaml:\n${text}\nfast: ${JSON.stringify(fast.docs)} ${fast.lines}\njs-yaml: ${JSON.stringify(ref.docs)} ${ref.lines}`);
  }
  countsAgree(fast, text);
  return true;
}

describe('block reader: the manifests that exist', () => {
  const files = [
    ...yamlFiles(path.join(REPO, 'test')),
    ...yamlFiles(path.join(REPO, 'examples')),
    ...(fs.existsSync(path.join(REPO, 'cdk8s.out')) ? yamlFiles(path.join(REPO, 'cdk8s.out')) : []),
    ...(sharedAvailable() ? yamlFiles(SHARED_DIR) : []),
  ];

  test('answers as js-yaml does, or declines, on every YAML file here and in ../shared', () => {
    let answered = 0;
    for (const file of files) if (agrees(fs.readFileSync(file, 'utf8'))) answered++;
    expect(files.length).toBeGreaterThan(sharedAvailable() ? 40 : 0);
    // Not a tautology: the realworld manifests (kubectl, Helm and docs YAML) are mostly in the subset.
    if (sharedAvailable()) expect(answered).toBeGreaterThanOrEqual(20);
  });
});

describe('block reader: what it answers, exactly', () => {
  const cases: Array<[string, string]> = [
    ['mappings, sequences at and below their key, compact mappings', 'a:\n- x\n- y: 1\n  z: [] \nb:\n  - c: {}\n    d: null\n'],
    ['core schema scalars', 'a: ~\nb: True\nc: 0x1F\nd: 0o17\ne: .inf\nf: -.5e3\ng: 1_000\nh: 0443\ni: yes\nj: "yes"\nk: 1:30\n'],
    ['resolved keys become strings', 'true: a\n1: b\n~: c\n0x10: d\n'],
    ['quotes and escapes', 'a: "x\\"y\\u00e9\\n"\nb: \'it\'\'s\'\n"c d": e\n\'f\': g\n'],
    ['comments and blank lines', '# head\n\na: b # tail\nc:\n  # indented\n  d: e#f\n'],
    ['one YAML 1.1 reading per scalar, in sequences too', 'a:\n  - 0443\n  - yes\nc: 1:30\n'],
    ['literal block scalars and their chomping', 'a: |\n  x\n\n   y\n\nb: |-\n  z\nc: |+\n  w\n\nd: e\n'],
    ['a literal block at the end of the text without a newline', 'a: |\n  x'],
    ['anchors and aliases', 'a: &m\n  k: v\nb: *m\nc: &s 1\nd: *s\ne:\n  - &i\n    x: 1\n  - *i\n'],
    ['documents and their lines', '---\n# c\n\na: 1\n---\n---\nb: 2\n--- # c\nc: 3\n'],
    ['__proto__ as a key', '__proto__: x\ny: 1\n'],
    ['repeated scalars, anchored or not, keep their readings', 'a: &x yes\nb: yes\nc:\n  yes: 0443\n  d: 0443\ne: yes\n'],
    ['an anchor name ends at a flow indicator', 'a: &x{}\nb: *x\nc: &y[]\n'],
    ['characters outside the BMP', 'a: "\u{1F600}"\nb: \u{1F600} x\n'],
  ];
  test.each(cases)('%s', (_name, text) => {
    expect(agrees(text)).toBe(true);
  });

  const declined: Array<[string, string]> = [
    ['a tag', 'a: !!str 1\n'],
    ['a flow collection with content', 'a: [1, 2]\n'],
    ['a folded scalar', 'a: >\n  x\n'],
    ['a multi-line plain scalar', 'a: x\n  y\n'],
    ['a multi-line quoted scalar', 'a: "x\n  y"\n'],
    ['a merge key', 'a: &m {}\nb:\n  <<: *m\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['a tab', 'a:\tb\n'],
    ['CRLF line ends', 'a: b\r\n'],
    ['a directive', '%YAML 1.2\n---\na: b\n'],
    ['an alias to no anchor', 'a: *x\n'],
    ['an alias to an earlier document\'s anchor', 'a: &x 1\n---\nb: *x\n'],
    ['bad indentation', 'a: b\n c: d\n'],
    ['a YAML escape JSON does not have', 'a: "\\x41"\n'],
    ['JSON', '{"a": 1}\n'],
    ['an alias followed by a flow indicator', 'a: &x 1\nb: *x]\n'],
    ['a lone surrogate (js-yaml refuses it)', 'a: \uD800x\n'],
  ];
  test.each(declined)('declines %s', (_name, text) => {
    expect(readBlockYaml(text)).toBeUndefined();
    expect(agrees(text)).toBe(false);
  });

  test('the manifests of a declined text are js-yaml\'s, with the same lines', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\n';
    expect(readBlockYaml(text)).toBeUndefined();
    expect(parseManifests(text, 'f.yaml').map((m) => [m.object.metadata.name, m.source?.line])).toEqual([['a', 1], ['b', 5]]);
  });
});

/** Strings that YAML writers must quote, or that read differently across YAML versions and schemas. */
const TRICKY = ['yes', 'No', 'on', '0443', '1:30', '1_000', '0o17', '~', 'null', 'true', '-1', '.5', '.inf', '.nan', '',
  ' lead', 'trail ', 'a: b', 'a #b', '#c', '- x', '? y', ': z', '&a', '*b', '!t', '|', '>', '%d', '@e', '`f', '"q"', "'s'",
  'x\ny', 'x\n', '\n', 'é✓', '{}', '[]', '<<', '---', '...', 'a\\b', 'it\'s', 'tab\there', '__proto__'];

const scalar = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string({ maxLength: 12 }),
  fc.integer(), fc.double(), fc.boolean(), fc.constant(null),
);
const key = fc.oneof(fc.constantFrom(...TRICKY), fc.stringMatching(/^[a-z][a-z0-9.\/-]{0,10}$/));
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, scalar, tie('list'), tie('map')),
  list: fc.array(tie('value'), { maxLength: 4 }),
  map: fc.dictionary(key, tie('value'), { maxKeys: 5 }),
}));
const documents = fc.array(fc.dictionary(key, value, { minKeys: 1, maxKeys: 5 }), { minLength: 1, maxLength: 3 });

/** The same data as different tools write it. */
function writings(docs: object[]): string[] {
  const shared = docs.map((d) => ({ ...d, again: d })); // a repeated map: js-yaml writes an anchor and an alias
  return [
    Yaml.stringify(...docs),
    docs.map((d) => yaml.dump(d)).join('---\n'),
    docs.map((d) => yaml.dump(d, { noArrayIndent: true, lineWidth: -1 })).join('---\n'),
    docs.map((d) => yaml.dump(d, { quotingType: '"', forceQuotes: true })).join('---\n'),
    shared.map((d) => yaml.dump(d, { lineWidth: 20 })).join('---\n'),
  ];
}

/** Edits that keep most of a text valid: YAML-significant characters, indentation, lines moved. */
const mutation = fc.tuple(fc.nat(), fc.constantFrom('del', 'ins', 'dup', 'indent', 'dedent'), fc.constantFrom(' ', ':', '-', '#', '"', "'", '|', '&a ', '&b', '*a', '*b', '\n', '  ', '{', '{}', '[]', ',', '0', 'y', '---\n', '\\'));

function mutate(text: string, [at, op, ch]: [number, string, string]): string {
  if (text.length === 0) return ch;
  const i = at % text.length;
  const lineStart = text.lastIndexOf('\n', i - 1) + 1;
  const lineEnd = text.indexOf('\n', i) === -1 ? text.length : text.indexOf('\n', i);
  switch (op) {
    case 'del': return text.slice(0, i) + text.slice(i + 1);
    case 'ins': return text.slice(0, i) + ch + text.slice(i);
    case 'dup': return text.slice(0, lineEnd) + '\n' + text.slice(lineStart, lineEnd) + text.slice(lineEnd);
    case 'indent': return `${text.slice(0, lineStart)}  ${text.slice(lineStart)}`;
    default: return text.slice(lineStart, lineStart + 1) === ' ' ? text.slice(0, lineStart) + text.slice(lineStart + 1) : text;
  }
}

describe('block reader: generated and mutated texts', () => {
  test('answers as js-yaml does on what cdk8s and js-yaml write (and answers a good share of it)', () => {
    let answered = 0;
    let total = 0;
    fc.assert(fc.property(documents, (docs) => {
      for (const text of writings(docs)) {
        total++;
        if (agrees(text)) answered++;
      }
    }), { numRuns: 400, seed: 20261201 });
    expect(answered / total).toBeGreaterThan(0.2);
  });

  test('a mutated text is read as js-yaml reads it, or declined (never accepted where js-yaml refuses)', () => {
    fc.assert(fc.property(documents, fc.array(mutation, { minLength: 1, maxLength: 3 }), fc.nat(4), (docs, edits, which) => {
      const text = edits.reduce(mutate, writings(docs)[which]);
      agrees(text);
    }), { numRuns: 3000, seed: 20261201 });
  });
});
