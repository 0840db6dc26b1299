/** Kubernetes label selector semantics, shared by every rule that asks "what does this select?". */

import { hasOwn, ownValue } from '../../core/own-keys';

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
 * answers false). The API server checks this for built-in kinds only; a Server is a custom resource.
 */
export function illegalRequirement(req: LabelSelectorRequirement): string | undefined {
  const hasValues = req.values !== undefined && req.values !== null;
  switch (req.operator) {
    case 'In': case 'NotIn': return hasValues ? undefined : `${req.operator} needs a values list`;
    case 'Exists': case 'DoesNotExist': return hasValues ? `${req.operator} takes no values list` : undefined;
    default: return `${req.operator} is not an operator (In, NotIn, Exists, DoesNotExist)`;
  }
}

/** Whether one requirement holds for these labels (an illegal one holds for none). */
export function requirementHolds(req: LabelSelectorRequirement, labels: Record<string, string>): boolean {
  if (illegalRequirement(req) !== undefined) return false;
  const has = Object.prototype.hasOwnProperty.call(labels, req.key);
  switch (req.operator) {
    case 'In': return has && req.values!.includes(labels[req.key]);
    case 'NotIn': return !has || !req.values!.includes(labels[req.key]);
    case 'Exists': return has;
    default: return !has; // DoesNotExist
  }
}

/** An empty selector selects everything, as in Kubernetes and Linkerd's Server.podSelector. */
export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  if (!labelsMatch(selector.matchLabels, labels)) return false;
  const expressions = selector.matchExpressions;
  return expressions === undefined || expressions === null || expressions.every((req) => requirementHolds(req, labels));
}

/** Whether the labels hold every pair of a matchLabels map (an absent map holds for all). */
export function labelsMatch(matchLabels: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  for (const key in matchLabels) {
    // Own properties only: a selector key `constructor` must not find Object.prototype's.
    if (!hasOwn(matchLabels, key)) continue;
    if (ownValue(labels, key) !== matchLabels[key]) return false;
  }
  return true;
}

/** A Service-style selector (plain map); `undefined` selects nothing, as a Service without selector has no endpoints. */
export function mapSelectorMatches(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  // Straight to the pairs: no `{ matchLabels }` wrapper per call, as every Service asks this of many objects.
  return selector ? labelsMatch(selector, labels) : false;
}

export function describeSelector(selector: LabelSelector | undefined): string {
  const parts = Object.entries(selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const req of selector?.matchExpressions ?? []) {
    parts.push(`${req.key} ${req.operator}${req.values ? ` (${req.values.join(',')})` : ''}`);
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
