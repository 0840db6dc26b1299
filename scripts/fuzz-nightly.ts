/**
 * The long fuzz run (nightly, or to replay a CI failure): the same property as test/robustness/fuzz-mesh.test.ts with
 * more cases and any seed.
 *
 *   npx ts-node -P scripts/tsconfig.json scripts/fuzz-nightly.ts --runs 20000 --seed 42
 *
 * The reference CRDs are read from ../shared (or $CDK8S_LINKERD_SHARED), as the tests read them. Exit 0 when every
 * case kept the contract, 1 on the first that did not (after shrinking), 2 on bad arguments.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ConformanceValidator, CrdCatalog } from '../src/conformance';
import { ConformanceCheck } from '../test/support/fuzz/oracle';
import { describeStats, fuzzMeshes } from '../test/support/fuzz/property';

interface Args {
  readonly runs: number;
  readonly seed: number;
}

function parseArgs(argv: string[]): Args {
  let runs = 20_000;
  let seed = Date.now() % 2 ** 31;
  for (let i = 0; i < argv.length; i++) {
    const value = Number(argv[i + 1]);
    if (argv[i] === '--runs' && Number.isInteger(value) && value > 0) runs = value;
    else if (argv[i] === '--seed' && Number.isInteger(value)) seed = value;
    else throw new Error(`usage: fuzz-nightly.ts [--runs N] [--seed N] (bad argument ${JSON.stringify(argv[i])} ${argv[i + 1] ?? ''})`);
    i++;
  }
  return { runs, seed };
}

/** The same directories test/support/shared.ts uses (that module needs jest globals, so it is not imported here). */
function referenceConformance(): ConformanceCheck {
  const shared = process.env.CDK8S_LINKERD_SHARED ?? path.resolve(__dirname, '..', '..', 'shared');
  const dirs = [path.join(shared, 'reference', 'linkerd', 'version-2.20', 'crds'), path.join(shared, 'reference', 'gateway-api', 'v1.2.1')];
  for (const dir of dirs) if (!fs.existsSync(dir)) throw new Error(`reference CRDs not found at ${dir} (set CDK8S_LINKERD_SHARED)`);
  const validator = new ConformanceValidator(CrdCatalog.fromDirectories(dirs));
  return (objects) => objects.flatMap((o) => validator.validate(o).map((i) => `${o.kind}/${o.metadata?.name}: ${i.path}: ${i.message}`));
}

function main(): number {
  let args: Args;
  try {
    args = parseArgs(process.argv.slice(2));
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 2;
  }
  process.stdout.write(`fuzzing ${args.runs} meshes with seed ${args.seed}\n`);
  try {
    const stats = fuzzMeshes({ runs: args.runs, seed: args.seed, conformance: referenceConformance() });
    process.stdout.write(`${describeStats(stats)}\n`);
    return 0;
  } catch (e) {
    process.stderr.write(`${(e as Error).message}\n`);
    return 1;
  }
}

process.exitCode = main();
