import { cdk8s, javascript } from 'projen';

const project = new cdk8s.ConstructLibraryCdk8s({
  name: 'cdk8s-linkerd',
  description: 'cdk8s constructs for the Linkerd 2.20 service mesh, with build-time checks that fail synth on mesh mistakes.',
  author: 'cdk8s-linkerd maintainers',
  authorAddress: 'maintainers@users.noreply.a-seed-8e75779c.example',
  repositoryUrl: 'https://github.com/maintainers/cdk8s-linkerd.git',
  // Every finding links to its rule's section here (SARIF helpUri, JSON helpUri, text --verbose): the anchors are the
  // rule IDs in lower case (docs/rules.md's headings). `--docs-url` overrides it.
  homepage: 'https://github.com/maintainers/cdk8s-linkerd/blob/main/docs/rules.md',
  // The Node this project is built and tested on (CI: Node 20.20.2). Nothing the package loads needs more than 20.
  minNodeVersion: '20.0.0',
  license: 'Apache-2.0',
  defaultReleaseBranch: 'main',
  packageManager: javascript.NodePackageManager.NPM,
  projenrcTs: true,
  github: false,
  release: false,
  // projen installs the exact minimum as a devDependency: these exist on the registry.
  cdk8sVersion: '2.69.74',
  constructsVersion: '10.4.2',
  jsiiVersion: '~6.0.0',
  // cdktf and its helm provider serve only the separate `cdk8s-linkerd/lib/cdktf` entry point: optional peers, so
  // cdk8s users never install CDKTF (archived upstream on 2025-12-10).
  peerDeps: ['cdk8s-plus-28@^2.5.6', 'cdktf@^0.21.0', '@cdktf/provider-helm@^12.1.2'],
  // Not jsii modules, so jsii requires them bundled; none of their types appear in the public API.
  // @bufbuild/protobuf is @bufbuild/cel's peer dependency: bundled too, or the packaged CEL engine cannot load.
  bundledDeps: ['@bufbuild/cel@0.6.1', '@bufbuild/protobuf@^2.6.2', 'js-yaml@^4.1.0'],
  // mermaid + jsdom: the picture and the diff's graph are checked with the real Mermaid parser (test/support/mermaid-parse.mjs).
  // mermaid 12 (with @mermaid-js/parser 2, chevrotain 13 and katex's commander 15) needs Node >= 22.12: 11.17.2 is the
  // last release that runs on Node 20, so `npm ci` prints no EBADENGINE there.
  devDeps: ['cdk8s-cli@2.207.60', '@types/js-yaml@^4.0.9', 'fast-check@^4', 'mermaid@11.17.2', 'jsdom@^26'],
  keywords: ['cdk8s', 'linkerd', 'service-mesh', 'gateway-api', 'kubernetes'],
  // Every jsii language, named as each ecosystem expects (cdk8s-plus-28 publishes all five the same way): PyPI
  // distribution = the npm name, module in snake case; Maven reverse-DNS of the GitHub owner; NuGet Company.Product;
  // Go a module of its own repository (jsii-pacmak generates it; .ci/run checks that every target generates).
  publishToPypi: { distName: 'cdk8s-linkerd', module: 'cdk8s_linkerd' },
  publishToMaven: {
    javaPackage: 'io.github.maintainers.cdk8s.linkerd',
    mavenGroupId: 'io.github.maintainers',
    mavenArtifactId: 'cdk8s-linkerd',
  },
  publishToNuget: { dotNetNamespace: 'Maintainers.Cdk8s.Linkerd', packageId: 'Maintainers.Cdk8s.Linkerd' },
  publishToGo: { moduleName: 'github.com/maintainers/cdk8s-linkerd-go' },
  bin: { 'cdk8s-linkerd': 'lib/frontends/cli/bin.js' },
  jestOptions: {
    updateSnapshot: javascript.UpdateSnapshot.NEVER,
    jestConfig: {
      // test/bench runs the benchmarks (tiny sizes, no timing asserted): `npm run test:long` runs it.
      testPathIgnorePatterns: ['/node_modules/', '/lib/', '/dist/', '/test/bench/'],
      coveragePathIgnorePatterns: ['/node_modules/', '/src/imports/'],
      // Coverage instruments every file jest loads and slows every test: `npm run test:coverage` collects it.
      collectCoverage: false,
      // jest's default is one worker fewer than the cores: on 2 cores that is one. Two workers fill both cores (the
      // parent process only waits for them).
      maxWorkers: 2,
    },
  },
  eslintOptions: {
    dirs: ['src'],
    devdirs: ['test', 'examples', 'scripts', 'bench'],
    ignorePatterns: ['src/imports/**', '*.js', '*.d.ts', 'node_modules/', 'cdk8s.out/'],
  },
  gitignore: ['/cdk8s.out/', '/bench-out/', '/.fresh-check/', '/.jsii.tabl.json'],
  // docs/ ships: README links to docs/rules.md and docs/error-messages.md must work for npm users too
  // (test/package-contents.test.ts). The benchmark is a development tool and does not.
  // action.yml and .pre-commit-hooks.yaml are read from the repository by GitHub and pre-commit, never from the package.
  npmIgnoreOptions: {
    ignorePatterns: ['/examples/', '/scripts/', '/cdk8s.out/', '/bench/', '/bench-out/', '/.ci/', '/cdk8s.yaml', '/action.yml', '/.pre-commit-hooks.yaml'],
  },
});

// The compile task keeps projen's `jsii --silence-warnings=reserved-word`: jsii silences a kind of warning, never one
// word or file. The reserved words still in use (none a Python or Java keyword outside the L1 types) are listed with
// the reason each is harmless in README ("Other languages"), and test/jsii-reserved-words.test.ts fails on any other.

// Semantic versions from 0.1.0 on (CHANGELOG.md). projen writes 0.0.0 unless its release workflow bumps the
// version, and this project has none (release: false), so the version is set here and changed with each release.
const VERSION = '0.1.0';
project.package.addField('version', VERSION);

// API.md holds the L2 constructs and the checks; the L1 types generated from the CRDs (two namespaces whose class
// names repeat the L2 ones: Server, AuthorizationPolicy, HttpRoute) get a file per namespace, linkerdPolicy.md and
// gatewayApi.md, linked from API.md's top.
project.tasks.tryFind('docgen')!.reset('jsii-docgen -o API.md --split-by-submodule');
project.gitattributes.addAttributes('/linkerdPolicy.md', 'linguist-generated');
project.gitattributes.addAttributes('/gatewayApi.md', 'linguist-generated');

project.package.addField('peerDependenciesMeta', {
  'cdktf': { optional: true },
  '@cdktf/provider-helm': { optional: true },
});

// Examples are user code: type-check them like a user's project would.
const typecheckExamples = project.addTask('typecheck:examples', {
  description: 'Type-check examples/ against the library sources',
  exec: 'tsc -p examples/tsconfig.json',
});

// Snapshots change only by hand (`npx jest -u`), never through a task: a task that rewrites them could hide a diff.
project.tasks.removeTask('test:update');

// ts-jest only transpiles (test/tsconfig.json has isolatedModules), so the test files are type-checked here. Without
// isolatedModules: src/ re-exports interfaces with plain `export { }`, which jsii compiles and ts-jest's CommonJS
// output tolerates (a type has no value to re-export).
const typecheckTests = project.addTask('typecheck:tests', {
  description: 'Type-check test/ against the library sources',
  exec: 'tsc --noEmit -p test/tsconfig.json --isolatedModules false',
});

// The CLI and the cdk8s-cli plugin tests run the compiled library, so compile before jest.
project.testTask.prependSpawn(typecheckTests);
project.testTask.prependSpawn(typecheckExamples);
project.testTask.prependSpawn(project.compileTask);

// The long, exhaustive runs (.ci/run runs them after `npm test`): the fuzzer's full round (`npm test` runs a smaller
// one of the same properties) and the benchmarks run at tiny sizes to prove they still work. Needs the compiled lib/.
project.addTask('test:long', {
  description: 'The long runs: the full fuzz round (FUZZ_RUNS=2000) and test/bench (compile first)',
  env: { FUZZ_RUNS: '2000', FUZZ_JSII_RUNS: '1000' },
  // The paths come first: --testPathIgnorePatterns takes every word after it as one more pattern.
  exec: "jest --ci test/bench test/robustness/fuzz-mesh.test.ts --testPathIgnorePatterns='/(node_modules|lib|dist)/'",
  receiveArgs: true,
});

// Coverage is off in `npm test` (it instruments every file and slows every test); this collects it.
project.addTask('test:coverage', {
  description: 'Run jest with coverage (coverage/)',
  exec: 'jest --ci --coverage',
  receiveArgs: true,
});

// The examples run as a user's app runs: ts-node transpiles them (and src/, which they import) with swc, set in
// examples/tsconfig.json; type checking is `npm test`'s (typecheck:examples). @swc/core's compiler is a native
// binary inside a registry package (@swc/core-<platform>), so nothing is downloaded at install.
project.addDevDeps('@swc/core@^1.16.22');

project.addTask('mesh-lab', {
  description: 'Synthesize examples/mesh-lab with the cdk8s CLI into cdk8s.out/',
  exec: 'cdk8s synth --no-check-upgrade',
});

project.addTask('control-plane', {
  description: 'Synthesize examples/control-plane (HA, cert-manager identity, Argo CD delivery) into cdk8s.out/',
  exec: 'ts-node -P examples/tsconfig.json examples/control-plane/main.ts',
});

project.addTask('control-plane-cdktf', {
  description: 'Synthesize examples/control-plane-cdktf (helm_release resources through CDKTF) into cdk8s.out/',
  exec: 'ts-node -P examples/tsconfig.json examples/control-plane-cdktf/main.ts',
});

project.addTask('multicluster', {
  description: 'Synthesize examples/multicluster (east and west on one trust anchor, a Link, orders exported pod to pod) into cdk8s.out/',
  exec: 'ts-node -P examples/tsconfig.json examples/multicluster/main.ts',
});

project.addTask('import', {
  description: 'Regenerate src/imports (L1 types) from the reference CRDs in ../shared/reference',
  exec: 'ts-node -P scripts/tsconfig.json scripts/import-crds.ts',
});

project.addTask('gen-annotations', {
  description: 'Regenerate src/core/linkerd-annotations.generated.ts from linkerd2 pkg/k8s/labels.go in ../shared/reference',
  exec: 'ts-node -P scripts/tsconfig.json scripts/gen-annotations.ts',
});

project.addTask('rule-docs', {
  description: 'Regenerate docs/rules.md from the rule pack',
  exec: 'ts-node -P scripts/tsconfig.json scripts/rule-docs.ts',
});

project.addTask('bench', {
  description: 'Benchmark the library, a user\'s synth end to end and the CLI against cdk8s without it; prints each target MET or MISSED (flags: --sizes 10,100,1000,5000 --runs 5 --e2e-max 1000 --json FILE)',
  steps: [
    { spawn: 'compile' },
    { exec: 'ts-node -P bench/tsconfig.json bench/run.ts', receiveArgs: true },
  ],
});

project.addTask('bench:main-job', {
  description: 'Time `cdk8s synth` of mesh-lab against the same objects in cdk8s-plus without this library (flags: --runs 5 --json FILE); target <= 1.5 x',
  exec: 'ts-node -P bench/tsconfig.json bench/main-job.ts',
  receiveArgs: true,
});

project.addTask('bench:reachability', {
  description: 'Time explain and diff against one analyze (flags: --sizes 5000 --runs 3); target: diff of two meshes <= 3 x analyze',
  exec: 'ts-node -P bench/tsconfig.json bench/reachability.ts',
  receiveArgs: true,
});

project.addTask('bench:worst-cases', {
  description: 'Inputs built to blow up a careless rule: N Servers each selecting all N pods (N = 1,000 and 4,000) in a 512 MiB heap (the analysis and each rule over 20 ms grow <= 5x), the secret scan over an alias bomb (<= 2 s) and a 20 MB string (<= 5 s)',
  exec: 'node --max-old-space-size=512 -r ts-node/register bench/worst-cases.ts',
  env: { TS_NODE_PROJECT: 'bench/tsconfig.json' },
  receiveArgs: true,
});

project.addTask('languages', {
  description: 'Generate the Python, Java, C# and Go code (jsii-pacmak --code-only), their API references and rosetta translations into dist/, and check them',
  steps: [
    { spawn: 'compile' },
    { exec: 'bash scripts/jsii-languages.sh' },
  ],
});

// Outside CI, `package` runs package-all, which would build every language's package: without a .NET or Go
// toolchain, PyPI or Maven Central that fails. Here it packages npm and generates (and checks) the other languages'
// code; package:python/java/dotnet/go still build the real packages where the toolchains are.
const packageAll = project.tasks.tryFind('package-all')!;
packageAll.reset();
packageAll.spawn(project.tasks.tryFind('package:js')!);
packageAll.exec('bash scripts/jsii-languages.sh');

// `npm pack` (and jsii-pacmak, which calls it) runs prepack: the bundled dependencies lose what no code loads.
project.addTask('prepack', {
  description: 'Remove from the bundled dependencies what no code loads (test data), before npm pack',
  exec: 'node scripts/prune-bundled.js',
});

project.addTask('conformance', {
  description: 'Run the CRD conformance suite against ../shared (fails if ../shared is missing under CI)',
  exec: 'jest --ci test/conformance',
});

project.synth();
