/**
 * `cdk8s-linkerd import`: TypeScript that rebuilds existing YAML object for object. Each object becomes an L2
 * construct of this library when one rebuilds it exactly (checked here, in-process, by building it and comparing what
 * it renders with the input, modulo key order); every other object becomes an `ApiObject`, with JSON patches for
 * what cdk8s would otherwise change (a generated name, a `null` dropped). Synthesizing the code gives back the input.
 */
import { ApiObject, App, Chart, JsonPatch } from 'cdk8s';
import { Construct } from 'constructs';
import { evaluate, quote, render, renderValue } from './expr';
import { PatchOp, deepEqual, diffPatch } from './json-diff';
import { Recipe, RecipeContext, recipeFor } from './recipes';
import { compareStrings } from '../../util/compare';

export interface ImportSummary {
  /** The TypeScript module. */
  readonly code: string;
  /** Objects rebuilt by cdk8s-linkerd constructs, by class name. */
  readonly constructs: { readonly [className: string]: number };
  /** Objects rebuilt as ApiObjects. */
  readonly apiObjects: number;
}

interface Emitted {
  readonly statement: string;
  readonly variable?: string;
}

const AUTHENTICATION_KINDS = ['MeshTLSAuthentication', 'NetworkAuthentication'];

function constructId(o: any, taken: Set<string>): string {
  const parts = [o.kind, o.metadata?.namespace, o.metadata?.name ?? o.metadata?.generateName].filter((p) => typeof p === 'string' && p !== '');
  const base = parts.join('-').replace(/\//g, '_') || 'Object';
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  taken.add(id);
  return id;
}

function variableName(className: string, o: any, taken: Set<string>): string {
  const words = `${className} ${o.metadata.namespace ?? ''} ${o.metadata.name}`.split(/[^A-Za-z0-9]+/).filter(Boolean);
  const base = words.map((w, i) => (i === 0 ? w[0].toLowerCase() + w.slice(1) : w[0].toUpperCase() + w.slice(1))).join('');
  let name = /^[0-9]/.test(base) ? `_${base}` : base;
  for (let n = 2; taken.has(name); n++) name = `${base}${n}`;
  taken.add(name);
  return name;
}

const clone = <T>(v: T): T => JSON.parse(JSON.stringify(v));

/** The objects under a scope as cdk8s renders them, without the App's validations (the checks are not the point). */
function renderedObjects(scope: Construct): any[] {
  return scope.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c)).map((c) => c.toJson());
}

/** Builds the recipe's construct alone in a fresh chart: the instance when it renders exactly `o`, else undefined. */
function buildExactly(recipe: Recipe, o: any, chart: Chart, id: string): Construct | undefined {
  try {
    const instance = new recipe.construct(chart, id, evaluate(recipe.props));
    const rendered = renderedObjects(chart);
    return rendered.length === 1 && deepEqual(rendered[0], o) ? instance : undefined;
  } catch {
    return undefined; // a construct that refuses the input (it would be an error in code too): keep the object as it is
  }
}

function patchCode(op: PatchOp, indent: string): string {
  if (op.op === 'remove') return `JsonPatch.remove(${quote(op.path)})`;
  return `JsonPatch.${op.op}(${quote(op.path)}, ${renderValue(op.value, indent)})`;
}

function apiObjectPatches(o: any, chart: Chart, id: string): PatchOp[] {
  const obj = new ApiObject(chart, id, clone(o));
  const patches = diffPatch(obj.toJson(), o);
  obj.addJsonPatch(...patches.map((p) => (p.op === 'remove' ? JsonPatch.remove(p.path) : JsonPatch[p.op](p.path, p.value))));
  if (!deepEqual(obj.toJson(), o)) throw new Error(`internal error: cannot rebuild ${o.kind} ${o.metadata?.name} exactly`);
  return patches;
}

function renderApiObject(o: any, id: string, patches: PatchOp[]): string {
  const created = `new ApiObject(scope, ${quote(id)}, ${renderValue(o, '  ')})`;
  if (patches.length === 0) return `${created};`;
  return `${created}.addJsonPatch(\n${patches.map((p) => `    ${patchCode(p, '    ')},`).join('\n')}\n  );`;
}

/** The TypeScript module that rebuilds `objects` (plain Kubernetes objects, in order) and a count of what it uses. */
export function generateImport(objects: readonly any[], sources: readonly string[] = []): ImportSummary {
  const scratch = new App({ outdir: '/nonexistent' });
  const authentications = new Map<string, { variable: string; instance: Construct }>();
  const ids = new Set<string>();
  const variables = new Set<string>();
  const referenced = new Set<string>();
  const l2Imports = new Set<string>();
  const constructs: Record<string, number> = {};
  const emitted: Emitted[] = [];
  let usesKplus = false;
  let apiObjects = 0;
  let usesPatch = false;

  objects.forEach((input, i) => {
    const o = clone(input);
    const id = constructId(o, ids);
    const chart = new Chart(scratch, `L2-${i}`);
    const ctx: RecipeContext = { scope: chart, authentications };
    const recipe = recipeFor(o, ctx);
    const instance = recipe ? buildExactly(recipe, o, chart, id) : undefined;
    if (recipe && instance) {
      recipe.imports.forEach((name) => l2Imports.add(name));
      usesKplus ||= recipe.usesKplus === true;
      constructs[recipe.className] = (constructs[recipe.className] ?? 0) + 1;
      const props = recipe.props;
      for (const v of refsIn(props)) referenced.add(v);
      let variable: string | undefined;
      if (AUTHENTICATION_KINDS.includes(o.kind)) {
        variable = variableName(recipe.className, o, variables);
        authentications.set(`${o.metadata.namespace ?? ''}/${o.kind}/${o.metadata.name}`, { variable, instance });
      }
      emitted.push({ variable, statement: `new ${recipe.className}(scope, ${quote(id)}, ${render(props, '  ')});` });
      return;
    }
    const patches = apiObjectPatches(o, new Chart(scratch, `ApiObject-${i}`), id);
    usesPatch ||= patches.length > 0;
    apiObjects++;
    emitted.push({ statement: renderApiObject(o, id, patches) });
  });

  const body = emitted.map((e) => (e.variable && referenced.has(e.variable) ? `  const ${e.variable} = ${e.statement}` : `  ${e.statement}`));
  const cdk8sNames = ['App', 'Chart', ...(apiObjects > 0 ? ['ApiObject'] : []), ...(usesPatch ? ['JsonPatch'] : [])].sort();
  const counts = Object.entries(constructs).sort(([a], [b]) => compareStrings(a, b)).map(([k, n]) => `${n} ${k}`);
  const lines = [
    `// Generated by \`cdk8s-linkerd import\`${sources.length ? ` from ${sources.join(', ')}` : ''}.`,
    `// ${objects.length} objects: ${[...counts, `${apiObjects} ApiObject`].join(', ')}. Synthesizing this module writes them back unchanged.`,
    `import { ${cdk8sNames.join(', ')} } from 'cdk8s';`,
    ...(usesKplus ? ["import * as kplus from 'cdk8s-plus-28';"] : []),
    ...(l2Imports.size ? [importLine([...l2Imports].sort(), 'cdk8s-linkerd')] : []),
    "import { Construct } from 'constructs';",
    '',
    '/** Adds the imported objects to `scope`: a Chart without a namespace of its own (every object names its own). */',
    'export function addImportedObjects(scope: Construct): void {',
    ...body,
    '}',
    '',
    'if (require.main === module) {',
    '  const app = new App();',
    "  addImportedObjects(new Chart(app, 'imported'));",
    '  app.synth();',
    '}',
    '',
  ];
  return { code: lines.join('\n'), constructs, apiObjects };
}

/** `import { a, b } from 'module';`, one name per line when that is too long for one. */
function importLine(names: string[], module: string): string {
  const flat = `import { ${names.join(', ')} } from '${module}';`;
  return flat.length <= 120 ? flat : `import {\n${names.map((n) => `  ${n},`).join('\n')}\n} from '${module}';`;
}

/** Variables (refs other than `scope` and literal-looking code) that rendered props mention. */
function refsIn(e: any): string[] {
  if (e.k === 'ref') return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(e.code) && e.code !== 'scope' ? [e.code] : [];
  if (e.k === 'call') return e.args.flatMap(refsIn);
  if (e.k === 'arr') return e.items.flatMap(refsIn);
  if (e.k === 'obj') return e.entries.flatMap(([, v]: any) => refsIn(v));
  return [];
}

