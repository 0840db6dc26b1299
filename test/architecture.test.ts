/**
 * Data flows one way: constructs → manifests → engine → findings. This test reads every import in src/ and fails when
 * a module reaches up a layer (e.g. the engine importing a construct), so the layering stays true as the code grows.
 */
import * as fs from 'fs';
import * as path from 'path';

const SRC = path.resolve(__dirname, '..', 'src');

/** What each area may import from src/ (besides itself). Lower layers first. */
const ALLOWED: Record<string, string[]> = {
  'imports': [],
  // No Linkerd knowledge at all: JSON guards, labels, text helpers. Every layer may use it.
  'util': [],
  'core': ['util'],
  'conformance': ['core', 'util'],
  // The engine, one entry per folder (docs/architecture.md draws the same picture). Linkerd's semantics live in the
  // model; everything else in the engine reads it, never the other way round.
  'analysis/model': ['core', 'util', 'analysis/options.ts', 'analysis/finding.ts'],
  // The inbound policy evaluation: per-port verdicts computed from the model.
  'analysis/policy': ['core', 'util', 'analysis/model', 'analysis/options.ts'],
  // Rules read the model and the evaluation and report through the contracts; fleet rules also read the fleet's model.
  'analysis/rules': [
    'core', 'util', 'analysis/model', 'analysis/policy', 'analysis/rules/schema', 'analysis/rule.ts', 'analysis/finding.ts',
    'analysis/options.ts', 'analysis/fleet/fleet-rule.ts', 'analysis/fleet/model.ts',
  ],
  // LKD-SCHEMA-001 alone may load the conformance validator (lazily, when CRDs are given).
  'analysis/rules/schema': ['core', 'analysis/model', 'analysis/rule.ts', 'analysis/finding.ts', 'conformance'],
  // The fleet runner: each cluster through the engine, then the fleet rules through the same runner.
  'analysis/fleet': [
    'core', 'util', 'analysis/model', 'analysis/policy', 'analysis/rules', 'analysis/engine.ts', 'analysis/finding.ts',
    'analysis/options.ts', 'analysis/result.ts', 'analysis/rule.ts', 'analysis/runner.ts', 'analysis/suppressions.ts',
  ],
  // explain, diff, plan-deny: read the model, the evaluation and the rules' effects; never the report.
  'analysis/reachability': [
    'core', 'util', 'analysis/model', 'analysis/policy', 'analysis/rules', 'analysis/engine.ts', 'analysis/finding.ts', 'analysis/options.ts',
    'analysis/result.ts',
  ],
  // Evidence beside explain and diff: declared refusals, retry factors and rate-limit capacity, from the rules' model.
  'analysis/evidence': [
    'core', 'util', 'analysis/model', 'analysis/policy', 'analysis/reachability', 'analysis/rules', 'analysis/engine.ts', 'analysis/result.ts',
  ],
  // Output formats: they read findings and reachability answers, never the model.
  'analysis/report': ['util', 'analysis/reachability', 'analysis/engine.ts', 'analysis/finding.ts', 'analysis/rule.ts'],
  // The contracts and the run (engine.ts, rule.ts, runner.ts, finding.ts, options, suppressions, the catalog and docs).
  'analysis': ['core', 'util', 'analysis/model', 'analysis/policy', 'analysis/rules', 'analysis/fleet'],
  // The repository config file (.cdk8s-linkerd.yaml): read by every front-end, validated with the conformance schema walk.
  'config': ['analysis', 'conformance', 'core', 'util'],
  'frontends/cli': ['analysis', 'config', 'conformance', 'core', 'frontends/import', 'util'],
  // The import generator builds constructs to check that they rebuild an object exactly: a front-end above them.
  'frontends/import': ['core', 'policy', 'routing', 'workloads', 'util'],
  'frontends/run-or-exit.ts': ['util'],
  // The plugin reads its cdk8s.yaml settings with the same module the construct-side hook uses (checks/plugin-settings.ts).
  'frontends/plugin': ['analysis', 'checks', 'config', 'conformance', 'core', 'frontends/cli', 'util'],
  // The construct-side check hook: constructs reach the engine only through it, never through a front-end.
  'checks': ['analysis', 'config', 'core', 'util'],
  'base.ts': ['core', 'checks', 'util'],
  'workloads': ['base.ts', 'core', 'checks', 'imports', 'routing', 'util'],
  'routing': ['base.ts', 'core', 'checks', 'imports', 'util'],
  'policy': ['base.ts', 'core', 'checks', 'imports', 'routing', 'workloads', 'util'],
  // Delivery forms live inside the control-plane domain: one folder, no two-way allowance between domains.
  'control-plane': ['base.ts', 'core', 'checks', 'imports', 'util'],
  'cdktf': ['core', 'control-plane', 'util'],
  'frontends/reachability.ts': ['analysis', 'core', 'util'],
  'multicluster': ['base.ts', 'core', 'control-plane', 'checks', 'imports', 'routing', 'util'],
};

function areaOf(rel: string): string | undefined {
  return Object.keys(ALLOWED).sort((a, b) => b.length - a.length).find((a) => rel === a || rel.startsWith(`${a}/`));
}

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    return e.isDirectory() ? sourceFiles(full) : e.name.endsWith('.ts') ? [full] : [];
  });
}

function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, 'utf8');
  const specs = [...text.matchAll(/(?:from|require\()\s*['"](\.[^'"]+)['"]/g)].map((m) => m[1]);
  return specs.map((s) => path.relative(SRC, path.resolve(path.dirname(file), s)).replace(/\\/g, '/'));
}

function allowed(fromArea: string, target: string): boolean {
  const targetArea = areaOf(target) ?? areaOf(`${target}.ts`) ?? target;
  if (targetArea === fromArea) return true;
  return ALLOWED[fromArea].some((a) => target === a || target.startsWith(`${a}/`) || `${target}.ts` === a || targetArea === a);
}

/** The source file a relative import names (`./x` → `x.ts` or `x/index.ts`), relative to src/; undefined for non-code. */
function resolveModule(target: string): string | undefined {
  return [`${target}.ts`, `${target}/index.ts`, target].find((f) => f.endsWith('.ts') && fs.existsSync(path.join(SRC, f)));
}

/** Every import cycle (strongly connected group of more than one file, or a file importing itself), by Tarjan's algorithm. */
function importCycles(files: string[]): string[][] {
  const edges = new Map(files.map((f) => [f, importsOf(path.join(SRC, f)).map(resolveModule).filter((t): t is string => t !== undefined)]));
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const cycles: string[][] = [];
  const visit = (file: string) => {
    order.set(file, order.size);
    low.set(file, order.get(file)!);
    stack.push(file);
    onStack.add(file);
    for (const next of edges.get(file) ?? []) {
      if (!order.has(next)) {
        visit(next);
        low.set(file, Math.min(low.get(file)!, low.get(next)!));
      } else if (onStack.has(next)) {
        low.set(file, Math.min(low.get(file)!, order.get(next)!));
      }
    }
    if (low.get(file) !== order.get(file)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== file);
    if (group.length > 1 || (edges.get(file) ?? []).includes(file)) cycles.push(group.sort());
  };
  for (const file of files) if (!order.has(file)) visit(file);
  return cycles;
}

describe('architecture', () => {
  const files = sourceFiles(SRC).map((f) => path.relative(SRC, f).replace(/\\/g, '/')).filter((f) => f !== 'index.ts');

  test('every source file belongs to a layer', () => {
    expect(files.filter((f) => !areaOf(f))).toEqual([]);
  });

  test('no module imports from a layer above it', () => {
    const violations = files.flatMap((file) => {
      const area = areaOf(file)!;
      return importsOf(path.join(SRC, file)).filter((target) => !allowed(area, target)).map((target) => `${file} → ${target}`);
    });
    expect(violations).toEqual([]);
  });

  test('no import cycle in src/ (type-only imports included: a cycle is a cycle to a reader)', () => {
    expect(importCycles([...files, 'index.ts'])).toEqual([]);
  });

  test('one string ordering: no localeCompare and no hand-written `<` comparator outside util/compare.ts', () => {
    const comparators = files.filter((f) => f !== 'util/compare.ts' && !f.startsWith('imports/'))
      .filter((f) => /<[^?;\n]*\?\s*-1\s*:|localeCompare\(/.test(fs.readFileSync(path.join(SRC, f), 'utf8')));
    expect(comparators).toEqual([]);
  });

  test('no hand-written file in src/ is over 500 lines (the generated L1 classes and key table excepted)', () => {
    const generated = (f: string) => f.startsWith('imports/') || f.endsWith('.generated.ts');
    const long = files.filter((f) => !generated(f))
      .map((f) => `${f}: ${fs.readFileSync(path.join(SRC, f), 'utf8').split('\n').length - 1}`)
      .filter((entry) => Number(entry.split(': ')[1]) > 500);
    expect(long).toEqual([]);
  });

  test('the main entry point never loads cdktf', () => {
    const text = fs.readFileSync(path.join(SRC, 'index.ts'), 'utf8');
    expect(text).not.toMatch(/cdktf/);
  });
});
