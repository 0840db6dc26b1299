/**
 * The construct front-end of the check engine: the one validation hook constructs use. It is registered once on the
 * App, and at synth it hands the resolved manifests (with their construct paths) to the engine. Errors fail
 * `cdk8s synth`; warnings are printed, or fail too when the app asks for it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { ApiObject } from 'cdk8s';
import { IConstruct } from 'constructs';
import { PendingAnalysis, THREAD_MIN_OBJECTS, ThreadVerdict, analysisThreadAvailable, exactJson } from './analysis-thread';
import { claimsAbove } from './claims';
import { withoutConstructDuplicates } from './construct-duplicates';
import { linkerdPluginEntries } from './plugin-config';
import { SettingError, missingPaths, readProperties } from './plugin-settings';
import { CONTEXT_OPTIONS, readContextOptions } from '../analysis/context-options';
import { AnalysisResult, AnalyzeOptions, analyze } from '../analysis/engine';
import { Finding, Severity, SuppressedFinding } from '../analysis/finding';
import { FleetClusterInput, analyzeFleet } from '../analysis/fleet';
import { Manifest } from '../analysis/model/manifest';
import { SUPPRESS_ANNOTATION, Suppression, formatSuppressions } from '../analysis/suppressions';
import { DefaultInboundPolicy } from '../core/default-inbound-policy';
import { InputRule, MeshConfigError, check } from '../core/errors';
import { isStruct, optionalBoolean, optionalList, requireAnyConstruct, requireStruct } from '../core/runtime-checks';

/** What the checks need to know about the target cluster. */
export interface MeshChecksOptions {
  /**
   * Fail synth on warnings too.
   * @default false
   */
  readonly failOnWarnings?: boolean;
  /**
   * Print warnings to stderr during synth.
   * @default - true, except under `cdk8s synth` with the cdk8s-linkerd validation plugin in cdk8s.yaml (the plugin
   * reports them after the manifests are written, so they are printed once)
   */
  readonly printWarnings?: boolean;
  /**
   * Target Kubernetes version.
   * @default "1.31"
   */
  readonly kubernetesVersion?: string;
  /**
   * Gateway API bundle version installed in the cluster.
   * @default "v1.2.1"
   */
  readonly gatewayApiVersion?: string;
  /**
   * Linkerd identity trust domain.
   * @default "cluster.local"
   */
  readonly trustDomain?: string;
  /**
   * The cluster's pod and service networks.
   * @default - the chart's clusterNetworks
   */
  readonly clusterNetworks?: string[];
  /**
   * The cluster-wide default inbound policy (`proxy.defaultInboundPolicy`).
   * @default DefaultInboundPolicy.ALL_UNAUTHENTICATED
   */
  readonly defaultInboundPolicy?: DefaultInboundPolicy;
  /**
   * Whether the control plane projects ServiceAccount tokens for proxies (`identity.serviceAccountTokenProjection`).
   * @default true
   */
  readonly serviceAccountTokenProjection?: boolean;
  /**
   * Certificates with fewer days of validity left get a warning.
   * @default 60
   */
  readonly certificateExpiryWarningDays?: number;
  /**
   * The ServiceAccount (`namespace/name`) of the Prometheus that scrapes the proxies' metrics; LKD-POL-021 checks that
   * every meshed workload lets it in.
   * @default - linkerd-viz's (`linkerd-viz/prometheus`) when that ServiceAccount is synthesized or in the inventory
   */
  readonly prometheusServiceAccount?: string;
  /**
   * Namespace of the Linkerd control plane (injected pods carry it in their labels).
   * @default "linkerd", or the namespace of a control plane in the App
   */
  readonly controlPlaneNamespace?: string;
  /**
   * Where kubelet probes come from (`policyController.probeNetworks`): the probe routes Linkerd generates admit these.
   * @default ["0.0.0.0/0", "::/0"], or the App's control plane's
   */
  readonly probeNetworks?: string[];
  /**
   * The cluster's default opaque ports (`proxy.opaquePorts`), comma-separated ports and ranges.
   * @default - the chart's, or the App's control plane's
   */
  readonly defaultOpaquePorts?: string;
  /**
   * Namespace of the cluster-wide EgressNetworks (`egress.globalEgressNetworkNamespace`).
   * @default "linkerd-egress", or the App's control plane's
   */
  readonly globalEgressNamespace?: string;
  /**
   * The namespace of objects that name none.
   * @default "default"
   */
  readonly defaultNamespace?: string;
  /**
   * Objects that exist in the cluster but are not synthesized here (e.g. pre-existing Services), as plain manifests.
   * @default - none
   */
  readonly inventory?: any[];
  /**
   * Whether pods use linkerd2-cni instead of linkerd-init (LKD-MESH-011).
   * @default - read from the control-plane install in the output, else false
   */
  readonly cniEnabled?: boolean;
  /**
   * Whether the control plane adds proxies as native sidecars (`proxy.nativeSidecar`; LKD-MESH-014). Pod and namespace
   * annotations override it.
   * @default - read from the control-plane install in the output, else true (the Linkerd 2.20 chart default)
   */
  readonly nativeSidecar?: boolean;
  /**
   * Schedulable nodes in the cluster (LKD-CP-001 says which fault domains the control plane survives).
   * @default - counted from Nodes in the inventory, else unknown
   */
  readonly nodeCount?: number;
  /**
   * Zones with schedulable nodes (`topology.kubernetes.io/zone`).
   * @default - counted from the inventory's Node labels, else unknown
   */
  readonly zoneCount?: number;
  /**
   * Print informational findings (what the checks could not know) to stderr during synth; they never fail it.
   * @default false
   */
  readonly printInfo?: boolean;
}

/** What the checks know of one cluster of a fleet. */
export interface ClusterCheckOptions {
  /**
   * The cluster's trust domain.
   * @default "cluster.local"
   */
  readonly trustDomain?: string;
  /**
   * The cluster's control-plane namespace.
   * @default "linkerd"
   */
  readonly controlPlaneNamespace?: string;
}

const CHECKS_SYMBOL = Symbol.for('cdk8s-linkerd.MeshChecks');

/** How cdk8s's App.synth() reports failed validations: this header, then `  [construct path] error` per line. */
const VALIDATION_HEADER = 'Validation failed with the following errors:';

/** The App's own validation errors (construct path `[]`) as cdk8s would throw them. */
function validationError(failures: string[]): Error {
  return new Error(`${VALIDATION_HEADER}\n  ${failures.map((f) => `[] ${f}`).join('\n  ')}`);
}

function isValidationError(e: unknown): boolean {
  const message = (e as any)?.message;
  return typeof message === 'string' && message.startsWith(VALIDATION_HEADER);
}

/** cdk8s's validation error with the App's own errors first, as cdk8s lists them (the App is validated first). */
function withFailures(e: unknown, failures: string[]): unknown {
  if (failures.length === 0 || !isValidationError(e)) return e;
  return new Error(`${validationError(failures).message}${(e as Error).message.slice(VALIDATION_HEADER.length)}`);
}

/**
 * Moves what a synth wrote into `staging` to `outdir`, file by file (a folder per chart merges into an existing one),
 * so the output directory receives manifests only once the checks have passed.
 */
function moveInto(staging: string, outdir: string): void {
  fs.mkdirSync(outdir, { recursive: true });
  for (const entry of fs.readdirSync(staging, { withFileTypes: true })) {
    const from = path.join(staging, entry.name);
    const to = path.join(outdir, entry.name);
    if (entry.isDirectory() && fs.existsSync(to) && fs.statSync(to).isDirectory()) moveInto(from, to);
    else fs.renameSync(from, to);
  }
  fs.rmSync(staging, { recursive: true, force: true });
}

function describe(f: Finding): string {
  const where = f.constructPath ?? f.file ?? '';
  const resource = `${f.resource.kind} ${f.resource.namespace ? `${f.resource.namespace}/` : ''}${f.resource.name}`;
  const cluster = f.cluster !== undefined ? ` [cluster ${f.cluster}]` : '';
  return `${f.ruleId} at ${where}${cluster} (${resource}): ${f.message} Fix: ${f.fix}`;
}

/**
 * The construct a user wrote: L2 constructs (ours and cdk8s-plus's) keep their L1 object as a child called "Resource",
 * so `lab/Orders/Resource/Resource` is reported as `lab/Orders`.
 */
function ownerPath(obj: ApiObject): string {
  return obj.node.path.replace(/(\/Resource)+$/, '');
}

/**
 * What would make the validation plugin that cdk8s-cli runs after this synth fail without analysing anything (a bad
 * property, a missing inventory file): known now, so the synth fails before it writes a manifest.
 */
function pluginProblems(properties: unknown): string[] {
  try {
    return missingPaths(readProperties(properties));
  } catch (e) {
    if (e instanceof SettingError) return [`${e.ruleId}: ${e.message}. Fix: ${e.fix}`];
    throw e;
  }
}

/** What would make the cdk8s-linkerd validation plugins of cdk8s.yaml fail without analysing anything. */
function pluginFailures(entries: unknown[] = linkerdPluginEntries()): string[] {
  return entries.flatMap(pluginProblems);
}

/**
 * The rendered objects as the analysis reads them fastest: a copy through JSON text, when that reads back exactly (the
 * thread gets the same text). Rendered JSON is built from the constructs' props, strings joined from parts and objects
 * of many shapes; the engine reads the copy's flat strings and uniform objects about 1.5 times as fast.
 */
function readableCopy(manifests: Manifest[]): Manifest[] {
  const json = exactJson(manifests);
  return json === undefined ? manifests : JSON.parse(json);
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

/** Build-time checks for every object of an App. */
export class MeshChecks {
  /** The checks of the App that `scope` belongs to; created and registered on first use. */
  public static of(scope: IConstruct): MeshChecks {
    requireAnyConstruct(scope, 'MeshChecks.of()', 'Pass the App, a Chart or any construct of the app.');
    const root = scope.node.root as any;
    if (!root[CHECKS_SYMBOL]) root[CHECKS_SYMBOL] = new MeshChecks(scope.node.root);
    return root[CHECKS_SYMBOL];
  }

  /**
   * Suppresses one rule on the objects of a construct, with a reason. The suppression is written into the objects'
   * annotations so the audit trail stays in the YAML, and the CLI and plugin honour it too.
   */
  public static suppress(construct: IConstruct, ruleId: string, reason: string): void {
    requireAnyConstruct(construct, 'MeshChecks.suppress()', 'Pass the construct whose objects the finding is on.');
    if (typeof ruleId !== 'string' || !/^LKD-[A-Z]+-\d{3}$/.test(ruleId)) {
      throw new MeshConfigError(construct, 'LKD-META-001', `${JSON.stringify(ruleId)} is not a rule ID.`, 'Pass an ID such as LKD-POL-011.');
    }
    if (typeof reason !== 'string' || reason.trim().length < 3) {
      throw new MeshConfigError(construct, 'LKD-META-001', `suppressing ${ruleId} needs a reason.`, 'Say why the finding is acceptable here.');
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
  /** What a LinkerdControlPlane of the App says about the cluster: the checks' defaults, below configure(). */
  private clusterDefaults: MeshChecksOptions = {};
  /** The clusters of a fleet (LinkerdFleet): each one's objects are analysed as that cluster, then the fleet rules run. */
  private readonly clusters: Array<{ scope: IConstruct; name: string; options: ClusterCheckOptions }> = [];
  /**
   * Findings of the last run. Only these are kept, not the index: a synth writes YAML right after the analysis, and
   * an index of every object held until then only makes the garbage collector's work larger.
   */
  private last?: Pick<AnalysisResult, 'findings' | 'suppressed'>;
  /** The failures of the first validation inside the current App.synth()/synthYaml(), reused until it returns. */
  private synthScoped?: string[];
  private synthDepth = 0;
  /** The analysis of the current synth, when it runs on a thread while cdk8s writes the YAML. */
  private pending?: PendingAnalysis;
  /** Whether the current synth may hand its analysis to a thread (decided when the outermost synth starts). */
  private threaded = false;
  /** The App's objects, listed when the outermost synth started (only when it hands the analysis to a thread). */
  private synthObjects?: ApiObject[];
  /** Objects whose rendered JSON is pinned for the rest of the current synth (see renderForSynth). */
  private pinned: ApiObject[] = [];
  /**
   * Warnings already printed by this App: each App prints its own (a second App in the same process, e.g. a test or
   * a multi-app synth script, must not stay silent because the first one printed the same line).
   */
  private readonly printed = new Set<string>();

  private constructor(private readonly root: IConstruct) {
    root.node.addValidation({ validate: () => this.validateOncePerSynth() });
    this.scopeValidationToSynth(root);
  }

  /**
   * cdk8s validates the whole App once more for every chart it writes (App._synthChart), so an App-wide analysis
   * would run charts + 1 times per synth: quadratic in large apps. Nothing can change the tree while one synchronous
   * App.synth() runs, so the first result is reused until that call returns. Only the App instance's own methods
   * are wrapped; calls outside a synth (Testing.synth, chart.toJson) always analyze afresh.
   */
  private scopeValidationToSynth(root: IConstruct): void {
    for (const method of ['synth', 'synthYaml'] as const) {
      const original = (root as any)[method];
      if (typeof original !== 'function') continue;
      (root as any)[method] = (...args: unknown[]) => {
        if (this.synthDepth > 0) return original.apply(root, args);
        this.synthDepth++;
        try {
          return this.synthChecked(method, () => original.apply(root, args));
        } finally {
          this.synthDepth--;
          this.endSynth();
        }
      };
    }
  }

  /**
   * One outermost synth. When the analysis can run on a thread, `App.synth()` writes into a staging directory beside
   * the output directory while the thread analyses; the manifests move into the output directory only when the
   * verdict has no error, so a failed synth writes nothing there, as when the checks run inline.
   */
  private synthChecked<T>(method: 'synth' | 'synthYaml', synth: () => T): T {
    // A thread takes about 0.2 s to start and load the engine: small apps are analysed inline, as cdk8s writes them.
    const objects = this.clusters.length === 0 && analysisThreadAvailable() ? apiObjectsUnder(this.root) : undefined;
    this.threaded = objects !== undefined && objects.length >= THREAD_MIN_OBJECTS;
    // Nothing adds constructs while one synth runs: the thread's objects are these.
    this.synthObjects = this.threaded ? objects : undefined;
    const app = this.root as any;
    const outdir: string | undefined = method === 'synth' && this.threaded ? app.outdir : undefined;
    const staging = outdir === undefined ? undefined : this.stagingDir(outdir);
    if (staging !== undefined) app.outdir = staging;
    let result: T;
    try {
      result = synth();
    } catch (e) {
      if (staging !== undefined) fs.rmSync(staging, { recursive: true, force: true });
      // A validation failure of other constructs lists the App's own errors too, as an inline analysis would.
      throw this.pending && isValidationError(e) ? withFailures(e, this.finishThread()) : e;
    } finally {
      if (staging !== undefined) app.outdir = outdir;
    }
    const failures = this.finishThread();
    if (failures.length > 0) {
      if (staging !== undefined) fs.rmSync(staging, { recursive: true, force: true });
      throw validationError(failures);
    }
    if (staging !== undefined && outdir !== undefined) moveInto(staging, outdir);
    return result;
  }

  /** A fresh directory beside `outdir` (same file system, so its files move by renaming). */
  private stagingDir(outdir: string): string {
    const parent = path.dirname(path.resolve(outdir));
    fs.mkdirSync(parent, { recursive: true });
    return fs.mkdtempSync(path.join(parent, `.${path.basename(outdir)}.cdk8s-linkerd-`));
  }

  private endSynth(): void {
    this.pending?.stop();
    this.pending = undefined;
    this.threaded = false;
    this.synthObjects = undefined;
    this.synthScoped = undefined;
    for (const obj of this.pinned) delete (obj as any).toJson;
    this.pinned = [];
  }

  /**
   * Inside a synth, the JSON the checks looked at is exactly what cdk8s writes next, so each object's rendering is
   * pinned (an own `toJson` shadowing the prototype's) until the synth returns: objects are rendered once, not twice.
   */
  private render(obj: ApiObject): any {
    const json = obj.toJson();
    if (this.synthDepth > 0) {
      (obj as any).toJson = () => json;
      this.pinned.push(obj);
    }
    return json;
  }

  private validateOncePerSynth(): string[] {
    if (this.synthDepth === 0) return this.validate();
    this.synthScoped ??= this.threaded ? this.validateBesideWriting() : this.validate();
    return this.synthScoped;
  }

  /**
   * Hands the analysis of this synth to a thread and returns what fails the synth before any verdict (the plugin's
   * settings); when the thread cannot start, the analysis runs inline.
   */
  private validateBesideWriting(): string[] {
    const manifests = this.manifests();
    this.pending = PendingAnalysis.start(manifests, this.engineOptions());
    if (this.pending) return pluginFailures();
    this.last = this.analyzeNow(manifests);
    return this.report(this.last.findings, true);
  }

  /** The verdict of the thread (or of an inline analysis when the thread gave none), reported as validate() does. */
  private finishThread(): string[] {
    const pending = this.pending;
    if (!pending) return [];
    this.pending = undefined;
    const verdict: ThreadVerdict = pending.wait() ?? this.analyzeNow();
    this.last = verdict;
    return this.report(verdict.findings, false);
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
    this.clusters.push({ scope, name, options });
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
    const given = Object.fromEntries(Object.entries(defaults).filter(([, v]) => v !== undefined));
    this.clusterDefaults = { ...this.clusterDefaults, ...given };
  }

  private engineOptions(): AnalyzeOptions {
    const merged: Record<string, unknown> = { ...this.clusterDefaults };
    for (const [k, v] of Object.entries(this.options)) if (v !== undefined) merged[k] = v;
    const context = Object.fromEntries(CONTEXT_OPTIONS.map((o) => [o.key, merged[o.key]]));
    return { ...context, inventory: this.options.inventory };
  }

  private manifest(obj: ApiObject): Manifest {
    const object = this.render(obj);
    const claims = claimsAbove(obj);
    return { object, source: claims.length > 0 ? { constructPath: ownerPath(obj), claims } : { constructPath: ownerPath(obj) } };
  }

  private manifests(): Manifest[] {
    return (this.synthObjects ?? apiObjectsUnder(this.root)).map((obj) => this.manifest(obj));
  }

  private analyzeNow(manifests: Manifest[] = this.manifests()): Pick<AnalysisResult, 'findings' | 'suppressed'> {
    const { findings, suppressed } = analyze(readableCopy(manifests), this.engineOptions());
    return { findings, suppressed };
  }

  private run(): Pick<AnalysisResult, 'findings' | 'suppressed'> {
    this.last = this.clusters.length > 0 ? this.runFleet() : this.analyzeNow();
    return this.last;
  }

  /** A fleet: each cluster's objects as that cluster, the rest of the App (if any) as one more single-cluster analysis. */
  private runFleet(): Pick<AnalysisResult, 'findings' | 'suppressed'> {
    const owners = new Map(this.clusters.map((c) => [c.scope, c]));
    const byCluster = new Map<string, Manifest[]>(this.clusters.map((c) => [c.name, []]));
    const rest: Manifest[] = [];
    for (const obj of apiObjectsUnder(this.root)) {
      const owner = obj.node.scopes.slice().reverse().find((s) => owners.has(s));
      (owner ? byCluster.get(owners.get(owner)!.name)! : rest).push(this.manifest(obj));
    }
    const inputs: FleetClusterInput[] = this.clusters.map((c) => ({
      name: c.name,
      manifests: byCluster.get(c.name)!,
      options: { trustDomain: c.options.trustDomain, controlPlaneNamespace: c.options.controlPlaneNamespace },
    }));
    const fleet = analyzeFleet(inputs, this.engineOptions());
    const others = rest.length > 0 ? analyze(rest, this.engineOptions()) : { findings: [], suppressed: [] };
    return { findings: [...fleet.findings, ...others.findings], suppressed: [...fleet.suppressed, ...others.suppressed] };
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
    return this.report(this.run().findings, true);
  }

  /** What fails the synth (errors, warnings under failOnWarnings, and with `plugin` the plugin's settings); prints the rest. */
  private report(all: Finding[], plugin: boolean): string[] {
    const findings = withoutConstructDuplicates(this.root, all);
    const failing = findings.filter((f) => f.severity === Severity.ERROR || (this.options.failOnWarnings && f.severity === Severity.WARNING));
    // cdk8s.yaml is read once per report: it says whether the plugin runs and what its settings are.
    const plugins = linkerdPluginEntries();
    // The plugin prints warnings itself when it runs: printed here too, they would show twice.
    if (this.options.printWarnings ?? plugins.length === 0) {
      this.printWarnings(findings.filter((f) => f.severity === Severity.WARNING && !failing.includes(f)));
    }
    // Information never fails synth, whatever failOnWarnings says.
    if (this.options.printInfo === true) this.printWarnings(findings.filter((f) => f.severity === Severity.INFO), 'info');
    return [...failing.map(describe), ...(plugin ? pluginFailures(plugins) : [])];
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
