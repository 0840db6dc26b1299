/** Kubernetes label selector semantics, shared by every rule that asks "what does this select?". */

import { MetadataMap, textOf } from './manifest';
import { hasOwn } from '../../core/own-keys';
import { isRecord } from '../../util/json';

export interface LabelSelectorRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values?: string[];
}

export interface LabelSelector {
  readonly matchLabels?: Record<string, string>;
  readonly matchExpressions?: LabelSelectorRequirement[];
}

/**
 * Why Linkerd's policy controller treats a requirement as matching no pod, or undefined when it is well formed:
 * `In` and `NotIn` need a `values` list (an empty one is a list), `Exists` and `DoesNotExist` must have none
 * (linkerd2 policy-controller/k8s/api/src/labels.rs Expression::matches, which logs "Illegal match expression" and
 * answers false). The API server checks this for built-in kinds only; a Server is a custom resource. A requirement of
 * the wrong shape (not a map, a key or values that are not text) never reaches either: the API server refuses the
 * object, so it matches nothing here too.
 */
export function illegalRequirement(req: LabelSelectorRequirement): string | undefined {
  if (!isRecord(req) || typeof req.key !== 'string') return 'a requirement is a map with a key';
  const values: unknown = req.values;
  const hasValues = values !== undefined && values !== null;
  if (hasValues && !isTextList(values)) return 'values must be a list of strings';
  switch (req.operator) {
    case 'In': case 'NotIn': return hasValues ? undefined : `${req.operator} needs a values list`;
    case 'Exists': case 'DoesNotExist': return hasValues ? `${req.operator} takes no values list` : undefined;
    default: return `${String(req.operator)} is not an operator (In, NotIn, Exists, DoesNotExist)`;
  }
}

/** Whether a value is a list of strings (a loop: every pod and Service judges requirements, cold). */
function isTextList(value: unknown): boolean {
  if (!Array.isArray(value)) return false;
  for (let i = 0; i < value.length; i++) if (typeof value[i] !== 'string') return false;
  return true;
}

/** Whether one requirement holds for these labels (an illegal one holds for none). */
export function requirementHolds(req: LabelSelectorRequirement, labels: MetadataMap): boolean {
  if (illegalRequirement(req) !== undefined) return false;
  const value = textOf(labels, req.key);
  const has = value !== undefined;
  switch (req.operator) {
    case 'In': return has && req.values!.includes(value);
    case 'NotIn': return !has || !req.values!.includes(value);
    case 'Exists': return has;
    default: return !has; // DoesNotExist
  }
}

/** The selector's matchExpressions when they are a list; undefined when absent, and `false` when of another type. */
function expressionsOf(selector: LabelSelector): readonly LabelSelectorRequirement[] | undefined | false {
  const expressions: unknown = selector.matchExpressions;
  if (expressions === undefined || expressions === null) return undefined;
  return Array.isArray(expressions) ? expressions : false;
}

/**
 * An empty selector selects everything, as in Kubernetes and Linkerd's Server.podSelector; one of the wrong shape (the
 * API server refuses its object) selects nothing.
 */
export function selectorMatches(selector: LabelSelector | undefined, labels: MetadataMap): boolean {
  if (selector === undefined || selector === null) return true;
  if (!isRecord(selector) || !labelsMatch(selector.matchLabels, labels)) return false;
  const expressions = expressionsOf(selector);
  if (expressions === false) return false;
  return expressions === undefined || expressions.every((req) => requirementHolds(req, labels));
}

/**
 * Whether the labels hold every pair of a matchLabels map (an absent map holds for all, one that is not a map for
 * none: the API server refuses it).
 */
export function labelsMatch(matchLabels: Record<string, string> | undefined, labels: MetadataMap): boolean {
  if (matchLabels === undefined || matchLabels === null) return true;
  if (typeof matchLabels !== 'object' || Array.isArray(matchLabels)) return false;
  for (const key in matchLabels) {
    // Own properties only: a selector key `constructor` must not find Object.prototype's.
    if (!hasOwn(matchLabels, key)) continue;
    // Both sides as Kubernetes reads them (textOf); a selector value that is not text matches nothing.
    const wanted = textOf(matchLabels, key);
    if (wanted === undefined || textOf(labels, key) !== wanted) return false;
  }
  return true;
}

/** A Service-style selector (plain map); `undefined` selects nothing, as a Service without selector has no endpoints. */
export function mapSelectorMatches(selector: Record<string, string> | undefined, labels: MetadataMap): boolean {
  // Straight to the pairs: no `{ matchLabels }` wrapper per call, as every Service asks this of many objects.
  return selector ? labelsMatch(selector, labels) : false;
}

/** The selector in words (`app=web, tier In (a,b)`), whatever shape the manifest gave it. */
export function describeSelector(selector: LabelSelector | undefined): string {
  if (selector === undefined || selector === null) return '(everything)';
  const matchLabels: unknown = selector.matchLabels;
  const expressions = isRecord(selector) ? expressionsOf(selector) : false;
  if (expressions === false || (matchLabels !== undefined && matchLabels !== null && !isRecord(matchLabels))) return '(not a label selector)';
  const parts = isRecord(matchLabels) ? Object.entries(matchLabels).map(([k, v]) => `${k}=${String(v)}`) : [];
  for (const req of expressions ?? []) {
    if (!isRecord(req)) continue;
    const values: unknown = req.values;
    parts.push(`${String(req.key)} ${String(req.operator)}${Array.isArray(values) ? ` (${values.join(',')})` : ''}`);
  }
  return parts.length ? parts.join(', ') : '(everything)';
}

/**
 * Labels Kubernetes controllers put on the pods they create, with values no manifest holds: the StatefulSet controller's
 * pod name and index, the revision and template hashes of StatefulSets, DaemonSets, ReplicaSets and Argo Rollouts, the Job
 * controller's job name, uid and completion index. Linkerd's policy controller matches the running pods' labels
 * (inbound/index.rs Pod::reindex_servers), so a selector may pick pods by them.
 */
const CONTROLLER_SET_LABELS = new Set([
  'statefulset.kubernetes.io/pod-name', 'apps.kubernetes.io/pod-index', 'controller-revision-hash', 'pod-template-hash',
  'pod-template-generation', 'rollouts-pod-template-hash', 'job-name', 'batch.kubernetes.io/job-name', 'controller-uid',
  'batch.kubernetes.io/controller-uid', 'batch.kubernetes.io/job-completion-index',
]);

/**
 * The selector without its requirements on labels that controllers set (see CONTROLLER_SET_LABELS), or undefined when it
 * has none: what a pod template can be judged against when the running pods' values of those labels are unknown.
 */
export function withoutControllerSetLabels(selector: LabelSelector): LabelSelector | undefined {
  const matchLabels = selector.matchLabels ?? {};
  const expressions = Array.isArray(selector.matchExpressions) ? selector.matchExpressions : [];
  const uses = Object.keys(matchLabels).some((key) => CONTROLLER_SET_LABELS.has(key))
    || expressions.some((req) => CONTROLLER_SET_LABELS.has(req?.key));
  if (!uses) return undefined;
  return {
    matchLabels: Object.fromEntries(Object.entries(matchLabels).filter(([key]) => !CONTROLLER_SET_LABELS.has(key))),
    matchExpressions: expressions.filter((req) => !CONTROLLER_SET_LABELS.has(req?.key)),
  };
}
