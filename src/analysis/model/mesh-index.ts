/**
 * One index over every object of an analysis run. Rules ask it questions instead of scanning the object list,
 * so that cross-object rules stay linear in the number of objects.
 */
import { KubeObject, Manifest, MetadataMap, NO_METADATA, annotationOf, annotationsOf, labelsOf, podTemplateOf, textOf } from './manifest';
import { NamespacedLists } from './namespaced-lists';
import { IndexedObject, ObjectStore } from './object-store';
import { LabelSelector, LabelSelectorRequirement, labelsMatch, mapSelectorMatches, selectorMatches } from './selectors';
import { WebhookSelectors, injectorWebhookOf, namespaceSkipReason, objectSkipReason } from './webhooks';

import { hasOwn } from '../../core/own-keys';
import { INJECT_ANNOTATION, WORKLOAD_GROUP } from '../../core/vocabulary';
import { hasOwnKeys, isRecord, listOf, pushTo } from '../../util/json';

// Re-exported so rules keep one import for the index and its objects.
export type { IndexedObject };

/** Whether the Linkerd proxy injector will inject a pod. */
export enum Injection {
  ENABLED = 'enabled',
  DISABLED = 'disabled',
  /** The namespace is neither synthesized nor in the inventory, so the answer is unknown. */
  UNKNOWN = 'unknown',
}

export interface ContainerPort {
  readonly name?: string;
  readonly containerPort: number;
  readonly protocol: string;
  readonly container: string;
}

/** A pod template from a workload (Deployment, StatefulSet, DaemonSet, ReplicaSet, Job, CronJob) or a bare Pod. */
export interface PodTemplate {
  readonly owner: IndexedObject;
  readonly namespace: string;
  /** The template's own labels. */
  readonly labels: MetadataMap;
  /**
   * The labels the running pods carry, which selectors (Services, Servers) see: the template's, plus those the proxy
   * injector adds to injected pods (`linkerd.io/proxy-<kind>`, `linkerd.io/workload-ns`, `linkerd.io/control-plane-ns`).
   */
  readonly runtimeLabels: MetadataMap;
  readonly annotations: MetadataMap;
  /**
   * The annotations of the pod's Namespace, where the analysis has it (empty otherwise): the injector copies its proxy
   * settings onto pods that lack them (read them with `podOrNamespaceAnnotation`).
   */
  readonly namespaceAnnotations: MetadataMap;
  readonly spec: KubeObject;
  readonly serviceAccountName: string;
  readonly ports: ContainerPort[];
  /** Whether the pods run with a Linkerd proxy, as the proxy injector decides it (`podInjection`). */
  readonly injection: Injection;
  /**
   * Set when the annotations (the pod's, its namespace's) ask for injection but the injector leaves the pod as it is:
   * why, in words. Such a pod runs without a proxy.
   */
  readonly injectionSkipped?: string;
}

/** The label index's answer when no pod template can match: read-only, never returned to callers. */
const NO_PODS: readonly PodTemplate[] = Object.freeze([]);
const NO_REQUIREMENTS: readonly LabelSelectorRequirement[] = Object.freeze([]);
const NO_WORKLOADS: readonly IndexedObject[] = Object.freeze([]);

/** By API group, the kinds whose pod template is what the injector and the policy controller see on their pods. */
const WORKLOAD_KINDS = new Map<string, ReadonlySet<string>>([
  ['', new Set(['Pod', 'ReplicationController'])],
  ['apps', new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet'])],
  ['batch', new Set(['Job', 'CronJob'])],
  // Argo Rollouts: its ReplicaSets' pods carry the Rollout's template (one with spec.workloadRef has none of its own).
  ['argoproj.io', new Set(['Rollout'])],
]);

/**
 * The owners the injector names in a pod label (`linkerd.io/proxy-<kind>`). It labels a Pod by the owner
 * GetOwnerKindAndName reports (controller/k8s/metadata_api.go), and populateMeta (pkg/inject/inject.go, case
 * *corev1.Pod) has a label for these kinds only. A CronJob's pods are reported as the CronJob's, which has no case
 * there, so they get none; a Rollout's are reported as their ReplicaSet's (isValidRSParent refuses a Rollout owner),
 * whose generated name is not in the manifests. A bare Pod has no owner to name.
 */
const OWNER_LABEL_KINDS: ReadonlySet<string> = new Set(['Deployment', 'ReplicationController', 'ReplicaSet', 'Job', 'DaemonSet', 'StatefulSet']);
/** By owner kind, the label key naming it: built once rather than a lower-cased key string per pod. */
const OWNER_LABEL_KEYS: ReadonlyMap<string, string> = new Map([...OWNER_LABEL_KINDS].map((kind) => [kind, `linkerd.io/proxy-${kind.toLowerCase()}`]));

/** What the proxy injector adds to an injected pod's labels. */
function injectedLabels(owner: IndexedObject, namespace: string, controlPlaneNamespace: string): Record<string, string> {
  const labels: Record<string, string> = { 'linkerd.io/control-plane-ns': controlPlaneNamespace, 'linkerd.io/workload-ns': namespace };
  const ownerKey = OWNER_LABEL_KEYS.get(owner.id.kind);
  if (ownerKey !== undefined) labels[ownerKey] = owner.id.name;
  return labels;
}


/**
 * The ServiceAccount a pod runs as. An empty serviceAccountName is unset: the API server's v1 conversion then takes the
 * deprecated `serviceAccount` field, and the ServiceAccount admission plugin fills in `default` when both are empty
 * (Helm charts commonly render `serviceAccountName: ""`).
 */
function podServiceAccountName(spec: KubeObject): string {
  const named = spec.serviceAccountName;
  if (named !== undefined && named !== null && named !== '') return String(named);
  const deprecated = spec.serviceAccount;
  return deprecated !== undefined && deprecated !== null && deprecated !== '' ? String(deprecated) : 'default';
}

/** The values the injector accepts in `linkerd.io/inject` (pkg/inject/report.go ValidInjectAnnotationValues); unset and "" too. */
function validInjectValue(value: unknown): boolean {
  return value === undefined || value === '' || value === 'enabled' || value === 'disabled' || value === 'ingress';
}

function enablesInjection(value: unknown): boolean {
  return value === 'enabled' || value === 'ingress';
}

/** pkg/healthcheck/sidecar.go HasExistingSidecars: which proxy a pod spec already carries, by container name or image. */
function existingSidecar(spec: KubeObject): 'linkerd' | 'other' | undefined {
  // Init containers first: a Linkerd proxy anywhere wins over another mesh's sidecar found before it.
  const found = sidecarAmong(listOf(spec.initContainers), true, undefined);
  return sidecarAmong(listOf(spec.containers), false, found);
}

/** `existingSidecar` over one container list (init containers also name the proxy-init images); no closure per pod. */
function sidecarAmong(containers: readonly any[], init: boolean, found: 'linkerd' | 'other' | undefined): 'linkerd' | 'other' | undefined {
  for (let i = 0; i < containers.length; i++) {
    const container = containers[i];
    const name = container?.name;
    const image = typeof container?.image === 'string' ? container.image : '';
    const linkerd = name === 'linkerd-proxy' || image.startsWith('cr.l5d.io/linkerd/proxy:')
      || (init && (name === 'linkerd-init' || image.startsWith('cr.l5d.io/linkerd/proxy-init:')));
    const istio = name === 'istio-proxy' || image.startsWith('gcr.io/istio-release/proxyv2:')
      || (init && (name === 'istio-init' || image.startsWith('gcr.io/istio-release/proxy_init:')));
    if (linkerd) found = 'linkerd';
    else if (istio && found === undefined) found = 'other';
  }
  return found;
}

/** Whether a pod spec already carries Linkerd's proxy (`linkerd inject --manual` output, pods read from a cluster): the injector then patches nothing. */
export function carriesLinkerdProxy(spec: KubeObject): boolean {
  return existingSidecar(spec) === 'linkerd';
}

/** A Service's `spec.selector` when it can select anything (a map with at least one pair); undefined otherwise. */
function serviceSelectorOf(service: IndexedObject): Record<string, string> | undefined {
  const selector = service.object.spec?.selector;
  return selector && typeof selector === 'object' && !Array.isArray(selector) && hasOwnKeys(selector) ? selector : undefined;
}

/**
 * The ports of a pod's containers, then its init containers. The list starts as a one-element literal at the first
 * port: it lives as long as the index, and pushing onto [] would reserve room for 17 in every pod template.
 */
function containerPorts(spec: KubeObject): ContainerPort[] {
  return portsOf(listOf(spec.initContainers), portsOf(listOf(spec.containers), undefined)) ?? [];
}

function portsOf(containers: readonly any[], ports: ContainerPort[] | undefined): ContainerPort[] | undefined {
  for (const container of containers) {
    for (const port of listOf(container?.ports)) {
      if (!port || typeof port !== 'object') continue;
      const entry: ContainerPort = { name: port.name, containerPort: port.containerPort, protocol: port.protocol ?? 'TCP', container: container.name };
      if (ports === undefined) ports = [entry]; else ports.push(entry);
    }
  }
  return ports;
}

/**
 * The index in its stages: the objects (ObjectStore, built by `super`), then what the objects say of the injector
 * webhook (webhooks.ts, which reads installs.ts; both see only the store), then the pod templates the injector
 * decides for, and the routes by parent Service. Each stage reads only the finished stages before it.
 */
export class MeshIndex extends ObjectStore {
  public readonly podTemplates: PodTemplate[] = [];
  private readonly podsByNamespace = new Map<string, PodTemplate[]>();
  /** namespace → label key → label value → pod templates; nested so that lookups build no key strings. */
  private readonly podsByLabel = new Map<string, Map<string, Map<unknown, PodTemplate[]>>>();
  /** Parent namespace → parent Service name → routes; nested, so that neither indexing nor lookups join key strings. */
  private readonly routesByParent = new NamespacedLists<IndexedObject>();
  private readonly podsByService = new Map<IndexedObject, PodTemplate[]>();
  private readonly externalWorkloadsByService = new Map<IndexedObject, IndexedObject[]>();
  /** ExternalWorkloads by namespace, built on first use: a Service only selects those of its own namespace. */
  private externalWorkloadsByNamespace?: Map<string, IndexedObject[]>;
  /** The injector webhook's selectors, read from the finished object store before any pod is judged. */
  private readonly injectorWebhook: WebhookSelectors;
  /** Its namespaceSelector's verdict per namespace: every pod and Service of a namespace asks the same question. */
  private readonly injectorNamespaceSkips = new Map<string, string | undefined>();

  /**
   * @param inventory objects that exist in the cluster but are not part of this output
   * @param controlPlaneNamespace where Linkerd runs: the injector writes it into injected pods' labels
   * @param defaultNamespace where objects without metadata.namespace are (kubectl's `default`, or `--namespace`)
   * @param serviceAccountTokenProjection the control plane's `identity.serviceAccountTokenProjection`: without it the
   * injector skips pods that mount no ServiceAccount token
   */
  constructor(manifests: Manifest[], inventory: KubeObject[] = [], private readonly controlPlaneNamespace = 'linkerd',
    defaultNamespace = 'default', private readonly serviceAccountTokenProjection = true) {
    super(manifests, inventory, defaultNamespace);
    this.injectorWebhook = injectorWebhookOf(this);
    // One pass: pod templates and route parents fill separate tables, each in input order.
    for (const entry of this.objects) {
      const kind = entry.id.kind;
      if (kind === 'HTTPRoute' || kind === 'GRPCRoute') this.indexRouteParents(entry);
      else this.indexWorkload(entry);
    }
  }

  /** The same question for pod templates: the Namespace is known, or the inventory has workloads there. */
  public seesPodTemplates(namespace: string): boolean {
    return this.namespace(namespace) !== undefined || this.podTemplatesIn(namespace).some((pod) => pod.owner.inventory);
  }

  /**
   * Why the proxy injector's webhook is never called for an object of this namespace with these labels (its
   * namespaceSelector or objectSelector leaves it out), or undefined when it is: see webhooks.ts.
   */
  public injectorWebhookSkips(namespace: string, labels: MetadataMap | undefined): string | undefined {
    let byNamespace = this.injectorNamespaceSkips.get(namespace);
    if (byNamespace === undefined && !this.injectorNamespaceSkips.has(namespace)) {
      byNamespace = namespaceSkipReason(this.injectorWebhook, namespace, this.namespace(namespace));
      this.injectorNamespaceSkips.set(namespace, byNamespace);
    }
    return byNamespace ?? objectSkipReason(this.injectorWebhook, labels);
  }

  public podTemplatesIn(namespace: string): PodTemplate[] {
    return this.podsByNamespace.get(namespace) ?? [];
  }

  /** Pod templates in `namespace` selected by a label selector; narrows through the label index first. */
  public podTemplatesMatching(namespace: string, selector: LabelSelector | undefined): PodTemplate[] {
    const expressions: unknown = selector?.matchExpressions;
    // A selector of the wrong shape selects nothing (selectorMatches): the list is read only when it is one.
    const candidates = this.candidatesFor(namespace, selector?.matchLabels, Array.isArray(expressions) ? expressions : NO_REQUIREMENTS);
    return candidates.length === 0 ? [] : candidates.filter((pod) => selectorMatches(selector, pod.runtimeLabels));
  }

  /**
   * The fewest pod templates that can match: those with the rarest of the selector's equality pairs (a matchLabels entry,
   * or an `In` with one value). Read in place, without a list of pairs: every Service and Server asks.
   */
  private candidatesFor(namespace: string, matchLabels: Record<string, string> | undefined,
    matchExpressions: readonly LabelSelectorRequirement[]): readonly PodTemplate[] {
    let candidates: readonly PodTemplate[] = this.podsByNamespace.get(namespace) ?? NO_PODS;
    const labels = this.podsByLabel.get(namespace);
    for (const key in matchLabels) {
      if (!hasOwn(matchLabels, key)) continue;
      const withPair = labels?.get(key)?.get(textOf(matchLabels, key)) ?? NO_PODS;
      if (withPair.length < candidates.length) candidates = withPair;
      if (candidates.length === 0) return NO_PODS;
    }
    for (const req of matchExpressions) {
      if (!isRecord(req) || req.operator !== 'In' || !Array.isArray(req.values) || req.values.length !== 1) continue;
      const withPair = labels?.get(req.key)?.get(req.values[0]) ?? NO_PODS;
      if (withPair.length < candidates.length) candidates = withPair;
      if (candidates.length === 0) return NO_PODS;
    }
    return candidates;
  }

  /** Pod templates a Service's `spec.selector` selects (none for a Service without selector); computed once per Service. */
  public podTemplatesForService(service: IndexedObject): PodTemplate[] {
    let pods = this.podsByService.get(service);
    if (pods === undefined) {
      const selector = serviceSelectorOf(service);
      pods = selector === undefined ? [] : this.podsWithLabels(service.id.namespace ?? '', selector);
      this.podsByService.set(service, pods);
    }
    return pods;
  }

  /** `podTemplatesMatching` for a plain map of pairs, without a selector wrapper or a filter closure per Service. */
  private podsWithLabels(namespace: string, matchLabels: Record<string, string>): PodTemplate[] {
    const candidates = this.candidatesFor(namespace, matchLabels, NO_REQUIREMENTS);
    // Most Services select one workload: a one-element literal, where pushing onto [] would reserve room for 17.
    let pods: PodTemplate[] | undefined;
    for (let i = 0; i < candidates.length; i++) {
      const pod = candidates[i];
      if (!labelsMatch(matchLabels, pod.runtimeLabels)) continue;
      if (pods === undefined) pods = [pod]; else pods.push(pod);
    }
    return pods ?? [];
  }

  /**
   * ExternalWorkloads a Service's `spec.selector` selects: Linkerd's external workload controller writes their
   * EndpointSlices (controller/api/destination/external-workload/endpoints_controller.go).
   */
  public externalWorkloadsForService(service: IndexedObject): IndexedObject[] {
    let workloads = this.externalWorkloadsByService.get(service);
    if (workloads === undefined) {
      const selector = serviceSelectorOf(service);
      workloads = [];
      if (selector !== undefined) {
        for (const w of this.externalWorkloadsIn(service.id.namespace ?? '')) {
          if (mapSelectorMatches(selector, labelsOf(w.object))) workloads.push(w);
        }
      }
      this.externalWorkloadsByService.set(service, workloads);
    }
    return workloads;
  }

  /** ExternalWorkloads of one namespace in input order; the table is built once, so each Service scans only its own. */
  private externalWorkloadsIn(namespace: string): readonly IndexedObject[] {
    if (this.externalWorkloadsByNamespace === undefined) {
      this.externalWorkloadsByNamespace = new Map();
      for (const w of this.list(WORKLOAD_GROUP, 'ExternalWorkload')) pushTo(this.externalWorkloadsByNamespace, w.id.namespace ?? '', w);
    }
    return this.externalWorkloadsByNamespace.get(namespace) ?? NO_WORKLOADS;
  }

  /** HTTPRoutes and GRPCRoutes (either group) whose parentRefs name this Service (in any group spelling). */
  public routesForService(namespace: string, name: string): IndexedObject[] {
    return this.routesByParent.get(namespace, name) ?? [];
  }

  private indexWorkload(entry: IndexedObject): void {
    if (WORKLOAD_KINDS.get(entry.group)?.has(entry.id.kind) !== true) return;
    const template = podTemplateOf(entry.object);
    if (!template) return;
    const namespace = entry.id.namespace ?? '';
    const annotations = annotationsOf(template);
    const spec = template.spec && typeof template.spec === 'object' ? template.spec : {};
    const labels = labelsOf(template);
    const { injection, skipped } = this.podInjection(annotations, labels, spec, namespace);
    const pod: { -readonly [K in keyof PodTemplate]: PodTemplate[K] } = {
      owner: entry,
      namespace,
      labels,
      runtimeLabels: injection === Injection.ENABLED ? { ...labels, ...injectedLabels(entry, namespace, this.controlPlaneNamespace) } : labels,
      annotations,
      namespaceAnnotations: this.namespaceAnnotations(namespace),
      spec,
      serviceAccountName: podServiceAccountName(spec),
      ports: containerPorts(spec),
      injection,
    };
    // Set afterwards rather than spread into the literal: a spread copies the object through the runtime for every pod.
    if (skipped !== undefined) pod.injectionSkipped = skipped;
    this.podTemplates.push(pod);
    pushTo(this.podsByNamespace, namespace, pod);
    this.indexLabels(namespace, pod);
  }

  /** One map per Namespace, shared by its pods. */
  private namespaceAnnotations(namespace: string): MetadataMap {
    const ns = this.namespace(namespace);
    return ns ? annotationsOf(ns.object) : NO_METADATA;
  }

  private indexLabels(namespace: string, pod: PodTemplate): void {
    let byKey = this.podsByLabel.get(namespace);
    if (!byKey) this.podsByLabel.set(namespace, byKey = new Map());
    for (const key in pod.runtimeLabels) {
      // Values as selectors read them (textOf): a label of another type is no label.
      const value = textOf(pod.runtimeLabels, key);
      if (value === undefined) continue;
      let byValue = byKey.get(key);
      if (!byValue) byKey.set(key, byValue = new Map());
      const list = byValue.get(value);
      if (list) list.push(pod); else byValue.set(value, [pod]);
    }
  }

  /**
   * The proxy injector's decision for a pod (pkg/inject/report.go `Injectable`): a pod that already carries Linkerd's
   * proxy is meshed whatever its annotations; otherwise the annotations must ask for injection (`disabledByAnnotation`)
   * and nothing may stop it: another mesh's sidecar, hostNetwork, or the webhook's selectors.
   */
  private podInjection(annotations: MetadataMap, labels: MetadataMap, spec: KubeObject,
    namespace: string): { injection: Injection; skipped?: string } {
    const sidecar = existingSidecar(spec);
    if (sidecar === 'linkerd') return { injection: Injection.ENABLED };
    const asked = this.injectionAsked(annotations[INJECT_ANNOTATION], namespace);
    if (asked !== Injection.ENABLED) return { injection: asked };
    const skipped = sidecar === 'other' ? 'it already carries another mesh\'s sidecar'
      : spec.hostNetwork === true ? 'it uses hostNetwork: true'
        : this.injectorWebhookSkips(namespace, labels) ?? this.tokenlessSkip(spec, namespace);
    return skipped === undefined ? { injection: Injection.ENABLED } : { injection: Injection.DISABLED, skipped };
  }

  /**
   * Without token projection the proxy needs the pod's own ServiceAccount token, and the injector skips a pod that
   * mounts none (report.go `Injectable`, disabledAutomountServiceAccountToken): automountServiceAccountToken false on
   * the pod, or on its ServiceAccount when the pod does not set it.
   */
  private tokenlessSkip(spec: KubeObject, namespace: string): string | undefined {
    if (this.serviceAccountTokenProjection) return undefined;
    const own = spec.automountServiceAccountToken;
    const account = this.serviceAccount(namespace, podServiceAccountName(spec));
    const where = own === false ? 'it sets' : own === undefined && account?.object.automountServiceAccountToken === false
      ? `its ServiceAccount ${account.id.name} sets` : undefined;
    return where === undefined ? undefined
      : `${where} automountServiceAccountToken: false and the control plane does not project tokens (identity.serviceAccountTokenProjection: false)`;
  }

  /**
   * What the `linkerd.io/inject` annotations ask for, as the webhook reads them (report.go `disabledByAnnotation`): a
   * value outside enabled/disabled/ingress, on the namespace or on the pod, disables injection; an enabling namespace
   * yields to a pod's `disabled`; otherwise the pod's own value must enable it.
   */
  private injectionAsked(own: unknown, namespace: string): Injection {
    const ns = this.namespace(namespace);
    const nsValue = ns ? annotationOf(ns.object, INJECT_ANNOTATION) : undefined;
    if (!validInjectValue(nsValue) || !validInjectValue(own)) return Injection.DISABLED;
    if (enablesInjection(nsValue)) return own === 'disabled' ? Injection.DISABLED : Injection.ENABLED;
    if (enablesInjection(own)) return Injection.ENABLED;
    return ns || own === 'disabled' ? Injection.DISABLED : Injection.UNKNOWN;
  }

  private indexRouteParents(entry: IndexedObject): void {
    if (entry.id.kind !== 'HTTPRoute' && entry.id.kind !== 'GRPCRoute') return;
    const parents = entry.object.spec?.parentRefs;
    if (!Array.isArray(parents)) return;
    for (const parent of parents) {
      // Kinds compare case-insensitively in Linkerd; which group spellings really attach is decided in routes/parents.ts.
      if (typeof parent?.kind !== 'string' || parent.kind.toLowerCase() !== 'service' || typeof parent.name !== 'string') continue;
      // Routes are indexed one at a time, so a route naming the same parent twice is already the list's last entry.
      this.routesByParent.addOnce(String(parent.namespace ?? entry.id.namespace ?? ''), parent.name, entry);
    }
  }
}
