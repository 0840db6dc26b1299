// Runs before `npm pack` (the prepack script, so jsii-pacmak's pack too): removes from the bundled dependencies what
// no code loads, so the tarball does not carry it. @bufbuild/cel-spec ships the CEL conformance test data (about
// 5.4 MB of its 6 MB) beside the generated protobuf types; @bufbuild/cel loads only gen/cel/expr/*_pb.js.
// test/package-contents.test.ts packs with this script and checks that the packed CEL engine still loads.
const fs = require('fs');
const path = require('path');

const ROOT = path.resolve(__dirname, '..');
const DEAD = [
  'node_modules/@bufbuild/cel-spec/dist/cjs/testdata',
  'node_modules/@bufbuild/cel-spec/dist/esm/testdata',
];

for (const rel of DEAD) {
  const dir = path.join(ROOT, rel);
  if (fs.existsSync(dir)) {
    fs.rmSync(dir, { recursive: true, force: true });
    process.stdout.write(`pruned ${rel}\n`);
  }
}
