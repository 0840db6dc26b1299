/**
 * The construct front-end of the check engine: the public facade (`of`, `configure`, `suppress`, `analyze`,
 * `findings`, `suppressed`). Constructs register through checks/register.ts, which adds the one validation hook to the
 * App; at synth the hook hands the resolved manifests (with their construct paths) to the engine, loaded then. Errors
 * fail `cdk8s synth` before cdk8s writes any manifest; warnings are printed, or fail too when the app asks for it.
 */
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { MeshChecksConfig } from './check-config';
import { claimsAbove } from './claims';
import { withoutConstructDuplicates } from './construct-duplicates';
import type { Verdict } from './fleet-partition';
import { ClusterCheckOptions, MeshChecksOptions } from './mesh-checks-options';
import { linkerdPluginEntries } from './plugin-config';
import { pluginFailures } from './plugin-preflight';
import { ChecksRegistration, addClusterDefaults, registrationOf } from './registration';
import { CONTEXT_OPTIONS, readContextOptions } from '../analysis/context-options';
import type { AnalyzeOptions } from '../analysis/engine';
import { Finding, Severity, SuppressedFinding } from '../analysis/finding';
import { Manifest } from '../analysis/model/manifest';
import { SUPPRESS_ANNOTATION, Suppression, formatSuppressions, isRuleId, reasonProblem } from '../analysis/suppressions';
import { InputRule, MeshConfigError, check } from '../core/errors';
import { isStruct, optionalBoolean, optionalList, requireAnyConstruct, requireStruct } from '../core/runtime-checks';
import { printableLine } from '../util/terminal-text';

export { ClusterCheckOptions, MeshChecksOptions } from './mesh-checks-options';

/** Where each object's suppressions are kept while the App is built (written to its annotation each time). */
const CHECKS_SYMBOL = Symbol.for('cdk8s-linkerd.MeshChecks');

function describe(f: Finding): string {
  const where = f.constructPath ?? f.file ?? '';
  const resource = `${f.resource.kind} ${f.resource.namespace ? `${f.resource.namespace}/` : ''}${f.resource.name}`;
  const cluster = f.cluster !== undefined ? ` [cluster ${f.cluster}]` : '';
  // Printed on a terminal and in the synth error: names and messages from the input are printed with escapes.
  return printableLine(`${f.ruleId} at ${where}${cluster} (${resource}): ${f.message} Fix: ${f.fix}`);
}

/**
 * The construct a user wrote: L2 constructs (ours and cdk8s-plus's) keep their L1 object as a child called "Resource",
 * so `lab/Orders/Resource/Resource` is reported as `lab/Orders`.
 */
function ownerPath(obj: ApiObject): string {
  return obj.node.path.replace(/(\/Resource)+$/, '');
}

/**
 * Rendered objects hold no undefined or null in maps (cdk8s drops them), so a `null` token in their JSON comes from
 * an array entry, NaN or Infinity, which JSON would not give back as they were. Seen anywhere (even inside a string,
 * where it is harmless), the objects are analysed as rendered: only the speed depends on this test, never a verdict.
 */
const NULL_TOKEN = /[:,[]null[,\]}]/;

/**
 * The rendered objects as the analysis reads them fastest: a copy through JSON text, when that reads back exactly.
 * Rendered JSON is built from the constructs' props, strings joined from parts and objects of many shapes; the engine
 * reads the copy's flat strings and uniform objects about 1.5 times as fast.
 */
function readableCopy(manifests: Manifest[]): Manifest[] {
  const json = JSON.stringify(manifests);
  return NULL_TOKEN.test(json) ? manifests : JSON.parse(json);
}

function apiObjectsUnder(scope: IConstruct): ApiObject[] {
  return scope.node.findAll().filter((c): c is ApiObject => ApiObject.isApiObject(c));
}

/** The options as the engine needs them: a jsii user's wrong types are refused here, not deep inside the analysis. */
function validateOptions(root: IConstruct, options: MeshChecksOptions): void {
  requireStruct(root, options, 'MeshChecks options');
  // The cluster facts are checked by the shared table (analysis/context-options.ts); these are the construct-only ones.
  for (const key of ['failOnWarnings', 'printWarnings'] as const) optionalBoolean(root, options[key], key);
  optionalList(root, options.inventory, 'inventory', isStruct, 'Kubernetes objects');
}

/** The engine, loaded on the first analysis (constructs alone never load it). */
function engine(): typeof import('../analysis/engine') {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../analysis/engine');
}

/** Build-time checks for every object of an App. */
export class MeshChecks {
  /** The checks of the App that `scope` belongs to; created and registered on first use. */
  public static of(scope: IConstruct): MeshChecks {
    requireAnyConstruct(scope, 'MeshChecks.of()', 'Pass the App, a Chart or any construct of the app.');
    const registration = registrationOf(scope, (root) => MeshChecks.of(root));
    let checks = registration.checks as MeshChecks | undefined;
    if (!checks) {
      checks = new MeshChecks(registration);
      registration.checks = checks;
    }
    return checks;
  }

  /**
   * Suppresses one rule on the objects of a construct, with a reason. The suppression is written into the objects'
   * annotations so the audit trail stays in the YAML, and the CLI and plugin honour it too.
   */
  public static suppress(construct: IConstruct, ruleId: string, reason: string): void {
    requireAnyConstruct(construct, 'MeshChecks.suppress()', 'Pass the construct whose objects the finding is on.');
    // The same ID and reason checks as the engine's reading of the annotations (analysis/suppressions.ts).
    if (!isRuleId(ruleId)) {
      throw new MeshConfigError(construct, 'LKD-META-001', `${JSON.stringify(ruleId)} is not a rule ID.`, 'Pass an ID such as LKD-POL-011.');
    }
    if (reasonProblem(ruleId, reason) !== undefined) {
      throw new MeshConfigError(construct, 'LKD-META-001', `suppressing ${ruleId} needs a reason with letters or digits a reviewer can read.`,
        'Say why the finding is acceptable here.');
    }
    const objects = apiObjectsUnder(construct);
    if (objects.length === 0) {
      throw new MeshConfigError(construct, 'LKD-META-001', 'this construct has no Kubernetes objects to suppress findings on.', 'Suppress on the construct that owns the object.');
    }
    for (const obj of objects) {
      const list: Suppression[] = ((obj as any)[CHECKS_SYMBOL] ??= []);
      list.push({ ruleId, reason: reason.trim() });
      obj.metadata.addAnnotation(SUPPRESS_ANNOTATION, formatSuppressions(list));
    }
  }

  private options: MeshChecksOptions = {};
  /** The repository config file (.cdk8s-linkerd.yaml), read through one helper. */
  private readonly config = new MeshChecksConfig();
  /**
   * Findings of the last run. Only these are kept, not the index: a synth writes YAML right after the analysis, and
   * an index of every object held until then only makes the garbage collector's work larger.
   */
  private last?: Verdict;
  /**
   * Warnings already printed by this App: each App prints its own (a second App in the same process, e.g. a test or
   * a multi-app synth script, must not stay silent because the first one printed the same line).
   */
  private readonly printed = new Set<string>();

  private constructor(private readonly registration: ChecksRegistration) {}

  private get root(): IConstruct {
    return this.registration.root;
  }

  /**
   * The App's validation: one analysis per synth (see checks/synth-hook.ts).
   * @internal
   */
  public _validateOncePerSynth(): string[] {
    return this.registration.synth.once(() => this.validate());
  }

  /** Sets what the checks know about the target cluster (merged with earlier settings). */
  public configure(options: MeshChecksOptions): void {
    validateOptions(this.root, options);
    // The same validation as the CLI's flags and the plugin's properties: one table (analysis/context-options.ts).
    readContextOptions((o) => (options as Record<string, unknown>)[o.key], (o, problem) => {
      check(false, this.root, InputRule.NAME, `MeshChecks option ${o.key} ${problem}.`, `Pass ${o.placeholder}: ${o.help.toLowerCase()}.`);
      throw new Error('unreachable');
    });
    // null is read as "not given" (as the option table reads it), so it never reaches the engine as a value.
    const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== null));
    this.options = { ...this.options, ...given };
  }

  /**
   * Marks `scope` (a FleetCluster chart) as the objects of cluster `name`, analysed apart from the rest of the App.
   * @internal
   */
  public _registerCluster(scope: IConstruct, name: string, options: ClusterCheckOptions): void {
    registrationOf(scope, (root) => MeshChecks.of(root)).clusters.push({ scope, name, options });
  }

  /** Runs the engine over every object of the App now and returns the findings (suppressed ones excluded). */
  public analyze(): Finding[] {
    return this.run().findings;
  }

  /**
   * The App's control plane tells the checks what it installs (Kubernetes and Gateway API versions, trust domain,
   * default policy, networks, namespace), so users do not repeat it; configure() still wins.
   * @internal
   */
  public _setClusterDefaults(defaults: MeshChecksOptions): void {
    addClusterDefaults(this.registration, { ...defaults });
  }

  private engineOptions(): AnalyzeOptions {
    const merged: Record<string, unknown> = { ...this.registration.clusterDefaults, ...this.config.read(this.options.configFile).context };
    for (const [k, v] of Object.entries(this.options)) if (v !== undefined) merged[k] = v;
    const context = Object.fromEntries(CONTEXT_OPTIONS.map((o) => [o.key, merged[o.key]]));
    return { ...context, inventory: this.options.inventory };
  }

  private manifest(obj: ApiObject): Manifest {
    const object = this.registration.synth.render(obj);
    const claims = claimsAbove(obj);
    return { object, source: claims.length > 0 ? { constructPath: ownerPath(obj), claims } : { constructPath: ownerPath(obj) } };
  }

  private run(): Verdict {
    const objects = apiObjectsUnder(this.root);
    if (this.registration.clusters.length > 0) {
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { analyzeFleetApp } = require('./fleet-partition') as typeof import('./fleet-partition');
      const fleet = analyzeFleetApp(objects, this.registration.clusters, (obj) => this.manifest(obj), this.engineOptions());
      this.last = this.config.levelled(fleet, this.options.configFile);
    } else {
      const { findings, suppressed } = engine().analyze(readableCopy(objects.map((obj) => this.manifest(obj))), this.engineOptions());
      this.last = this.config.levelled({ findings, suppressed }, this.options.configFile);
    }
    return this.last;
  }

  /** Findings of the last run (runs the checks if they have not run). */
  public get findings(): Finding[] {
    return (this.last ?? this.run()).findings;
  }

  /** Suppressed findings of the last run, with their reasons. */
  public get suppressed(): SuppressedFinding[] {
    return (this.last ?? this.run()).suppressed;
  }

  private validate(): string[] {
    return this.report(this.run().findings);
  }

  /** What fails the synth (errors, warnings under failOnWarnings, the plugin's settings); prints the rest. */
  private report(all: Finding[]): string[] {
    const findings = withoutConstructDuplicates(this.root, all);
    const failOnWarnings = this.config.failsOnWarnings(this.options.failOnWarnings, this.options.configFile);
    const failing = findings.filter((f) => f.severity === Severity.ERROR || (failOnWarnings && f.severity === Severity.WARNING));
    // cdk8s.yaml is read once per report: it says whether the plugin runs and what its settings are.
    const plugins = linkerdPluginEntries();
    // The plugin prints warnings itself when it runs: printed here too, they would show twice.
    if (this.options.printWarnings ?? plugins.length === 0) {
      this.printWarnings(findings.filter((f) => f.severity === Severity.WARNING && !failing.includes(f)));
    }
    // Information never fails synth, whatever failOnWarnings says.
    if (this.options.printInfo === true) this.printWarnings(findings.filter((f) => f.severity === Severity.INFO), 'info');
    return [...failing.map(describe), ...pluginFailures(plugins)];
  }

  private printWarnings(warnings: Finding[], label = 'warning'): void {
    for (const warning of warnings) {
      const line = `${label}: ${describe(warning)}`;
      if (this.printed.has(line)) continue;
      this.printed.add(line);
      process.stderr.write(`${line}\n`);
    }
  }
}
