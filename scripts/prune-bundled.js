// Runs before `npm pack` (the prepack script, so jsii-pacmak's pack too): keeps out of the tarball what the bundled
// dependencies ship but no code of this package loads. It writes an `.npmignore` (`*`) into each such folder, which
// npm honours inside a bundled dependency; node_modules itself stays complete, so the development tree is unchanged.
//  - @bufbuild/cel-spec's CEL conformance test data (about 5.4 MB): @bufbuild/cel loads only gen/cel/expr/*_pb.js;
//  - the ES module builds of the @bufbuild packages: this package is CommonJS, and require() resolves dist/cjs;
//  - js-yaml's browser bundles (dist/): require('js-yaml') loads index.js and lib/;
//  - @bufbuild/re2's test fixtures.
// test/package-contents.test.ts checks that no bundled module requires any of them; test/frontends/ci-integration.test.ts
// installs the packed tarball and runs the CLI, CEL included (--crds).
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const UNLOADED = [
  'node_modules/@bufbuild/cel-spec/dist/cjs/testdata',
  'node_modules/@bufbuild/cel-spec/dist/esm',
  'node_modules/@bufbuild/cel/dist/esm',
  'node_modules/@bufbuild/protobuf/dist/esm',
  'node_modules/@bufbuild/re2/dist/esm',
  'node_modules/@bufbuild/re2/dist/cjs/__fixtures__',
  'node_modules/js-yaml/dist',
];

for (const rel of UNLOADED) {
  const dir = path.join(ROOT, rel);
  if (fs.existsSync(dir)) {
    fs.writeFileSync(path.join(dir, '.npmignore'), '*\n');
    process.stdout.write(`left out of the package: ${rel}\n`);
  }
}

module.exports = { UNLOADED };
