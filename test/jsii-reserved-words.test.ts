/**
 * jsii's reserved-word warnings (JSII5018) are silenced in the compile task because jsii cannot silence one word or one
 * file; this test is the narrow version of that warning. It walks the compiled assembly (.jsii, written by the compile
 * step `npm test` runs first) with jsii's own word lists and allows only the words README's "Other languages" section
 * lists, each for the reason given there:
 * - Python and Java spell a name as written (`from` would become `from_`): no name may be reserved there, except the
 *   L1 types' `except`, which is the CRD's field name (cdk8s's own L1 `IpBlock` has it too);
 * - C# and Go capitalize properties and methods (`Namespace`, `Type`, `RetryStatus_Range`) and take parameters by
 *   position, so their keywords never reach the user's code; only the words below are in use, and a new one must be
 *   judged and added to README.
 */
import * as fs from 'fs';
import * as path from 'path';

const REPO = path.resolve(__dirname, '..');

/** jsii's lists (the ones JSII5018 uses); not in the package's exports map, so loaded by file path. */
const JSII_WORDS_FILE = path.join(path.dirname(require.resolve('jsii/package.json')), 'lib', 'reserved-words.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- a file path, which `import` cannot name
const jsiiWords: { isReservedName(name: string): string[] | undefined } = require(JSII_WORDS_FILE);

/** Words reserved only in C# / Go, kept with the reason README gives. */
const CAPITALIZED_ONLY: Record<string, string> = {
  namespace: 'C#', // cdk8s's own ApiObjectMetadata.namespace; C# `Namespace`, parameters by position
  operator: 'C#', // the Kubernetes label selector's field; C# `Operator`
  base: 'C#', // MeshReachability.diff(base, head) parameter, by position
  type: 'Go', // header/query match type, Gateway API's field; Go `Type`
  range: 'Go', // RetryStatus.range(); Go `RetryStatus_Range`
};
/** Names reserved in Python or Java that only the L1 types (generated from the CRDs) may use. */
const L1_ONLY: Record<string, string> = { except: 'Python' };
const L1_SUBMODULES = ['cdk8s-linkerd.linkerdPolicy.', 'cdk8s-linkerd.gatewayApi.'];

interface NameUse { readonly name: string; readonly where: string; readonly languages: string[] }

function namesOf(assembly: any): NameUse[] {
  const uses: NameUse[] = [];
  const add = (name: string, where: string) => {
    const languages = jsiiWords.isReservedName(name);
    if (languages) uses.push({ name, where, languages });
  };
  for (const type of Object.values<any>(assembly.types)) {
    add(type.name, type.fqn);
    for (const p of type.properties ?? []) add(p.name, `${type.fqn}.${p.name}`);
    for (const m of [...(type.methods ?? []), ...(type.initializer ? [{ ...type.initializer, name: 'constructor' }] : [])]) {
      if (m.name !== 'constructor') add(m.name, `${type.fqn}.${m.name}()`);
      for (const param of m.parameters ?? []) add(param.name, `${type.fqn}.${m.name}(${param.name})`);
    }
    for (const member of type.members ?? []) add(member.name, `${type.fqn}.${member.name}`);
  }
  return uses;
}

function isAllowed(use: NameUse): boolean {
  if (use.languages.every((l) => l === 'C#' || l === 'Go')) return use.name in CAPITALIZED_ONLY;
  return use.name in L1_ONLY && L1_SUBMODULES.some((prefix) => use.where.startsWith(prefix));
}

describe('jsii reserved words', () => {
  const assemblyFile = path.join(REPO, '.jsii');
  const uses = namesOf(JSON.parse(fs.readFileSync(assemblyFile, 'utf8')));

  test('the assembly is checked at all (jsii finds these words too)', () => {
    expect(uses.map((u) => u.where)).toEqual(expect.arrayContaining(['cdk8s-linkerd.ServiceReference.namespace']));
  });

  test('no public name is a word a target language reserves, beyond the ones README lists', () => {
    const refused = uses.filter((u) => !isAllowed(u)).map((u) => `${u.where}: "${u.name}" is reserved in ${u.languages.join(', ')}`);
    expect(refused).toEqual([]);
  });

  test('README lists exactly the reserved words in use, with the languages that reserve them', () => {
    const inUse = [...new Set(uses.map((u) => u.name))].sort();
    expect(inUse).toEqual(Object.keys({ ...CAPITALIZED_ONLY, ...L1_ONLY }).sort());
    const readme = fs.readFileSync(path.join(REPO, 'README.md'), 'utf8');
    for (const [word, language] of Object.entries({ ...CAPITALIZED_ONLY, ...L1_ONLY })) {
      expect(readme).toContain(`\`${word}\` (${language}`);
    }
  });
});
