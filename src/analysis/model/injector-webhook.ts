/**
 * Which objects the API server sends to Linkerd's proxy injector at all. The MutatingWebhookConfiguration's
 * `namespaceSelector` and `objectSelector` decide it before the injector reads a single annotation: a pod they leave
 * out is created without a proxy, whatever `linkerd.io/inject` says, and nothing reports it.
 *
 * The selectors come from where the cluster says them: the webhook configuration itself when the analysis has it
 * (rendered install output, the inventory), else the linkerd-control-plane install's `proxyInjector.namespaceSelector`
 * and `objectSelector` (merged over the chart's defaults as Helm merges values: maps key by key, lists whole), else
 * the chart's defaults (charts/linkerd-control-plane/values.yaml, rendered by templates/proxy-injector-rbac.yaml).
 */
import { controlPlaneInstalls } from './installs';
import { KubeObject, labelsOf } from './manifest';
import type { IndexedObject, MeshIndex } from './mesh-index';
import { LabelSelector, LabelSelectorRequirement, requirementHolds } from './selectors';
import { isPlainObject, mergeLayers } from '../../core/helm-values';

/** The webhook's name in the chart's MutatingWebhookConfiguration (templates/proxy-injector-rbac.yaml). */
export const INJECTOR_WEBHOOK_NAME = 'linkerd-proxy-injector.linkerd.io';
/** The label the API server sets on every Namespace to its name (Kubernetes ≥ 1.21); selectors may use it. */
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';

/** The chart's `proxyInjector` selectors (linkerd-control-plane values.yaml, version-2.20). */
const CHART_SELECTORS = {
  namespaceSelector: {
    matchExpressions: [
      { key: 'config.linkerd.io/admission-webhooks', operator: 'NotIn', values: ['disabled'] },
      { key: NAMESPACE_NAME_LABEL, operator: 'NotIn', values: ['kube-system', 'cert-manager'] },
    ],
  },
  objectSelector: {
    matchExpressions: [
      { key: 'linkerd.io/control-plane-component', operator: 'DoesNotExist' },
      { key: 'linkerd.io/cni-resource', operator: 'DoesNotExist' },
    ],
  },
};

/** The injector webhook's selectors, and where they were read. */
export interface InjectorWebhook {
  /** Absent: every namespace (as the API server reads a webhook without one). */
  readonly namespaceSelector?: LabelSelector;
  /** Absent: every object. */
  readonly objectSelector?: LabelSelector;
  /** Where the selectors come from, for messages; undefined for the chart's defaults. */
  readonly source?: string;
}

function selectorOf(value: unknown): LabelSelector | undefined {
  return isPlainObject(value) ? value as LabelSelector : undefined;
}

/** The proxy injector's entry of a MutatingWebhookConfiguration, if it has one. */
function injectorEntry(config: IndexedObject): KubeObject | undefined {
  const webhooks = config.object.webhooks;
  return Array.isArray(webhooks) ? webhooks.find((w) => isPlainObject(w) && w.name === INJECTOR_WEBHOOK_NAME) : undefined;
}

function fromWebhookConfigurations(index: MeshIndex): InjectorWebhook | undefined {
  for (const config of index.list('admissionregistration.k8s.io', 'MutatingWebhookConfiguration')) {
    const entry = injectorEntry(config);
    if (entry === undefined) continue;
    return {
      namespaceSelector: selectorOf(entry.namespaceSelector),
      objectSelector: selectorOf(entry.objectSelector),
      source: `MutatingWebhookConfiguration ${config.id.name}`,
    };
  }
  return undefined;
}

function fromInstall(index: MeshIndex): InjectorWebhook | undefined {
  const [install] = controlPlaneInstalls(index);
  const given = install?.values.proxyInjector;
  if (!isPlainObject(given) || !('namespaceSelector' in given || 'objectSelector' in given)) return undefined;
  const merged = mergeLayers(CHART_SELECTORS, { namespaceSelector: given.namespaceSelector, objectSelector: given.objectSelector });
  return {
    namespaceSelector: selectorOf(merged.namespaceSelector),
    objectSelector: selectorOf(merged.objectSelector),
    source: `proxyInjector values of the linkerd-control-plane install in ${install!.source} ${install!.subject.id.name}`,
  };
}

/** The injector webhook's selectors as this analysis can know them. */
export function injectorWebhookOf(index: MeshIndex): InjectorWebhook {
  return fromWebhookConfigurations(index) ?? fromInstall(index) ?? CHART_SELECTORS;
}

/** Only this label is known of a Namespace the analysis does not have. */
const NAME_ONLY = new Set([NAMESPACE_NAME_LABEL]);

/** The first requirement these labels fail, judging only the keys in `known` when given (the rest may hold). */
function failedRequirement(selector: LabelSelector | undefined, labels: Record<string, string>,
  known?: ReadonlySet<string>): LabelSelectorRequirement | undefined {
  if (!selector) return undefined;
  for (const [key, value] of Object.entries(selector.matchLabels ?? {})) {
    if ((known === undefined || known.has(key)) && labels[key] !== value) return { key, operator: 'In', values: [value] };
  }
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  return expressions.find((req) => (known === undefined || known.has(req.key)) && !requirementHolds(req, labels));
}

function failure(req: LabelSelectorRequirement, labels: Record<string, string>, what: string, selector: string): string {
  const values = Array.isArray(req.values) && req.values.length > 0 ? ` (${req.values.join(', ')})` : '';
  return Object.prototype.hasOwnProperty.call(labels, req.key)
    ? `${what} is labelled ${req.key}: ${labels[req.key]}, which the injector webhook's ${selector} leaves out`
    : `${what} has no label ${req.key}${values}, which the injector webhook's ${selector} requires`;
}

/** Where the selectors were read, for a message; nothing for the chart's defaults. */
function sourceNote(webhook: InjectorWebhook): string {
  return webhook.source === undefined ? '' : ` (${webhook.source})`;
}

/**
 * Why the injector webhook is never called for an object of `namespace` with these labels, or undefined when it is.
 * A Namespace this analysis does not have is judged only by the label the API server gives it (its name).
 */
export function webhookSkipReason(webhook: InjectorWebhook, namespace: string, namespaceObject: IndexedObject | undefined,
  labels: Record<string, string> | undefined): string | undefined {
  const namespaceLabels = { ...(namespaceObject ? labelsOf(namespaceObject.object) : {}), [NAMESPACE_NAME_LABEL]: namespace };
  const namespaceFailure = failedRequirement(webhook.namespaceSelector, namespaceLabels, namespaceObject ? undefined : NAME_ONLY);
  if (namespaceFailure) {
    return namespaceFailure.key === NAMESPACE_NAME_LABEL
      ? `the injector webhook's namespaceSelector leaves out namespace ${namespace}${sourceNote(webhook)}`
      : `${failure(namespaceFailure, namespaceLabels, `Namespace ${namespace}`, 'namespaceSelector')}${sourceNote(webhook)}`;
  }
  const objectLabels = labels ?? {};
  const objectFailure = failedRequirement(webhook.objectSelector, objectLabels);
  return objectFailure ? `${failure(objectFailure, objectLabels, 'it', 'objectSelector')}${sourceNote(webhook)}` : undefined;
}
