/**
 * Which objects the API server sends to Linkerd's admission webhooks at all. A webhook's `namespaceSelector` and
 * `objectSelector` decide it before Linkerd reads anything: a pod the proxy injector's selectors leave out is created
 * without a proxy whatever `linkerd.io/inject` says, and a route the policy validator's leave out is applied unchecked
 * (the policy controller then drops what it cannot convert, with only a log line). Nothing reports either.
 *
 * The selectors come from where the cluster says them: the webhook configuration itself when the analysis has it
 * (rendered install output, the inventory), else the linkerd-control-plane install's values (`proxyInjector.*`,
 * `policyValidator.namespaceSelector`; merged over the chart's defaults as Helm merges values: maps key by key, lists
 * whole), else the chart's defaults (charts/linkerd-control-plane/values.yaml, rendered by
 * templates/proxy-injector-rbac.yaml and templates/destination-rbac.yaml).
 */
import { controlPlaneInstalls } from './installs';
import { KubeObject, MetadataMap, NO_METADATA, labelsOf, textOf } from './manifest';
import { perIndex } from './memo';
import type { IndexedObject, ObjectStore } from './object-store';
import { LabelSelector, LabelSelectorRequirement, requirementHolds } from './selectors';
import { mergeLayers } from '../../core/helm-values';
import { ADMISSION_WEBHOOKS_LABEL } from '../../core/vocabulary';
import { isRecord as isPlainObject } from '../../util/json';

/** The label the API server sets on every Namespace to its name (Kubernetes ≥ 1.21); selectors may use it. */
const NAMESPACE_NAME_LABEL = 'kubernetes.io/metadata.name';
const OPT_OUT = { key: ADMISSION_WEBHOOKS_LABEL, operator: 'NotIn', values: ['disabled'] };

/** One of Linkerd's admission webhooks, as the chart installs it. */
interface WebhookSpec {
  /** How messages name it. */
  readonly label: string;
  readonly configKind: 'MutatingWebhookConfiguration' | 'ValidatingWebhookConfiguration';
  /** The webhook's name inside its configuration. */
  readonly name: string;
  /** Its key in the chart's values. */
  readonly valuesKey: string;
  /** The chart's selectors (linkerd-control-plane values.yaml, version-2.20). */
  readonly chart: { readonly namespaceSelector?: LabelSelector; readonly objectSelector?: LabelSelector };
}

const PROXY_INJECTOR: WebhookSpec = {
  label: 'the injector webhook',
  configKind: 'MutatingWebhookConfiguration',
  name: 'linkerd-proxy-injector.linkerd.io',
  valuesKey: 'proxyInjector',
  chart: {
    namespaceSelector: { matchExpressions: [OPT_OUT, { key: NAMESPACE_NAME_LABEL, operator: 'NotIn', values: ['kube-system', 'cert-manager'] }] },
    objectSelector: {
      matchExpressions: [
        { key: 'linkerd.io/control-plane-component', operator: 'DoesNotExist' },
        { key: 'linkerd.io/cni-resource', operator: 'DoesNotExist' },
      ],
    },
  },
};

const POLICY_VALIDATOR: WebhookSpec = {
  label: 'the policy validator webhook',
  configKind: 'ValidatingWebhookConfiguration',
  name: 'linkerd-policy-validator.linkerd.io',
  valuesKey: 'policyValidator',
  chart: { namespaceSelector: { matchExpressions: [OPT_OUT] } },
};

/** A webhook's selectors, and where they were read. */
export interface WebhookSelectors {
  /** How messages name the webhook. */
  readonly label: string;
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

/** The webhook's entry in a webhook configuration, if it has one. */
function webhookEntry(config: IndexedObject, spec: WebhookSpec): KubeObject | undefined {
  const webhooks = config.object.webhooks;
  return Array.isArray(webhooks) ? webhooks.find((w) => isPlainObject(w) && w.name === spec.name) : undefined;
}

function fromWebhookConfigurations(index: ObjectStore, spec: WebhookSpec): WebhookSelectors | undefined {
  for (const config of index.list('admissionregistration.k8s.io', spec.configKind)) {
    const entry = webhookEntry(config, spec);
    if (entry === undefined) continue;
    return {
      label: spec.label,
      namespaceSelector: selectorOf(entry.namespaceSelector),
      objectSelector: selectorOf(entry.objectSelector),
      source: `${spec.configKind} ${config.id.name}`,
    };
  }
  return undefined;
}

function fromInstall(index: ObjectStore, spec: WebhookSpec): WebhookSelectors | undefined {
  const [install] = controlPlaneInstalls(index);
  const given = install?.values[spec.valuesKey];
  if (!isPlainObject(given) || !('namespaceSelector' in given || 'objectSelector' in given)) return undefined;
  const merged = mergeLayers(spec.chart, { namespaceSelector: given.namespaceSelector, objectSelector: given.objectSelector });
  return {
    label: spec.label,
    namespaceSelector: selectorOf(merged.namespaceSelector),
    objectSelector: selectorOf(merged.objectSelector),
    source: `${spec.valuesKey} values of the linkerd-control-plane install in ${install!.source} ${install!.subject.id.name}`,
  };
}

function selectorsOf(index: ObjectStore, spec: WebhookSpec): WebhookSelectors {
  return fromWebhookConfigurations(index, spec) ?? fromInstall(index, spec) ?? { label: spec.label, ...spec.chart };
}

/** The proxy injector webhook's selectors as this analysis can know them (ObjectStore reads them while it is built). */
export function injectorWebhookOf(index: ObjectStore): WebhookSelectors {
  return selectorsOf(index, PROXY_INJECTOR);
}

/** The policy validator webhook's selectors (policy-controller/runtime/src/admission.rs is what it calls). */
export const policyValidatorOf: (index: ObjectStore) => WebhookSelectors = perIndex((index) => selectorsOf(index, POLICY_VALIDATOR));

/** Only this label is known of a Namespace the analysis does not have. */
const NAME_ONLY = new Set([NAMESPACE_NAME_LABEL]);

/** The first requirement these labels fail, judging only the keys in `known` when given (the rest may hold). */
function failedRequirement(selector: LabelSelector | undefined, labels: MetadataMap,
  known?: ReadonlySet<string>): LabelSelectorRequirement | undefined {
  if (!selector) return undefined;
  // Loops, and no empty stand-ins for absent fields: every pod and Service asks, cold.
  if (isPlainObject(selector.matchLabels)) {
    for (const key of Object.keys(selector.matchLabels)) {
      const wanted = textOf(selector.matchLabels, key);
      if ((known === undefined || known.has(key)) && (wanted === undefined || textOf(labels, key) !== wanted)) {
        return { key, operator: 'In', values: wanted === undefined ? [] : [wanted] };
      }
    }
  }
  const expressions = selector.matchExpressions;
  if (!Array.isArray(expressions)) return undefined;
  // Only requirements of the right shape are judged: the API server refuses a webhook configuration with any other,
  // and a message must be able to name the requirement's key.
  for (const req of expressions) {
    if (isPlainObject(req) && typeof req.key === 'string' && (known === undefined || known.has(req.key)) && !requirementHolds(req, labels)) return req;
  }
  return undefined;
}

function failure(req: LabelSelectorRequirement, labels: MetadataMap, what: string, selector: string): string {
  const values = Array.isArray(req.values) && req.values.length > 0 ? ` (${req.values.join(', ')})` : '';
  if (!Object.prototype.hasOwnProperty.call(labels, req.key)) return `${what} has no label ${req.key}${values}, which ${selector} requires`;
  const labelled = `${what} is labelled ${req.key}: ${labels[req.key]}`;
  return req.operator === 'In' ? `${labelled}, but ${selector} requires ${req.key}${values}` : `${labelled}, which ${selector} leaves out`;
}

/** Where the selectors were read, for a message; nothing for the chart's defaults. */
function sourceNote(webhook: WebhookSelectors): string {
  return webhook.source === undefined ? '' : ` (${webhook.source})`;
}

/**
 * Why a webhook is never called for objects of `namespace`, or undefined when its namespaceSelector lets them through.
 * A Namespace this analysis does not have is judged only by the label the API server gives it (its name).
 */
export function namespaceSkipReason(webhook: WebhookSelectors, namespace: string, namespaceObject: IndexedObject | undefined): string | undefined {
  const namespaceLabels = { ...(namespaceObject ? labelsOf(namespaceObject.object) : {}), [NAMESPACE_NAME_LABEL]: namespace };
  const namespaceFailure = failedRequirement(webhook.namespaceSelector, namespaceLabels, namespaceObject ? undefined : NAME_ONLY);
  if (!namespaceFailure) return undefined;
  return namespaceFailure.key === NAMESPACE_NAME_LABEL
    ? `${webhook.label}'s namespaceSelector leaves out namespace ${namespace}${sourceNote(webhook)}`
    : `${failure(namespaceFailure, namespaceLabels, `Namespace ${namespace}`, `${webhook.label}'s namespaceSelector`)}${sourceNote(webhook)}`;
}

/** Why a webhook is never called for an object with these labels (its objectSelector), or undefined when it is. */
export function objectSkipReason(webhook: WebhookSelectors, labels: MetadataMap | undefined): string | undefined {
  const objectLabels = labels ?? NO_METADATA;
  const objectFailure = failedRequirement(webhook.objectSelector, objectLabels);
  return objectFailure ? `${failure(objectFailure, objectLabels, 'it', `${webhook.label}'s objectSelector`)}${sourceNote(webhook)}` : undefined;
}

/**
 * Why the policy validator never sees this object (its namespaceSelector or objectSelector), or undefined when it
 * does: there an object the webhook would refuse is applied, and the policy controller meets it as it is.
 */
export function policyValidatorSkips(index: ObjectStore, entry: IndexedObject): string | undefined {
  const namespace = entry.id.namespace ?? '';
  const validator = policyValidatorOf(index);
  return namespaceSkipReason(validator, namespace, index.namespace(namespace)) ?? objectSkipReason(validator, labelsOf(entry.object));
}
