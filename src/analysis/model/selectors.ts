/** Kubernetes label selector semantics, shared by every rule that asks "what does this select?". */

export interface LabelSelectorRequirement {
  readonly key: string;
  readonly operator: string;
  readonly values?: string[];
}

export interface LabelSelector {
  readonly matchLabels?: Record<string, string>;
  readonly matchExpressions?: LabelSelectorRequirement[];
}

function requirementHolds(req: LabelSelectorRequirement, labels: Record<string, string>): boolean {
  const has = Object.prototype.hasOwnProperty.call(labels, req.key);
  const values = req.values ?? [];
  switch (req.operator) {
    case 'In': return has && values.includes(labels[req.key]);
    case 'NotIn': return !has || !values.includes(labels[req.key]);
    case 'Exists': return has;
    case 'DoesNotExist': return !has;
    default: return false;
  }
}

/** An empty selector selects everything, as in Kubernetes and Linkerd's Server.podSelector. */
export function selectorMatches(selector: LabelSelector | undefined, labels: Record<string, string>): boolean {
  if (!selector) return true;
  const matchLabels = selector.matchLabels;
  for (const key in matchLabels) {
    if (labels[key] !== matchLabels[key]) return false;
  }
  const expressions = selector.matchExpressions;
  return expressions === undefined || expressions === null || expressions.every((req) => requirementHolds(req, labels));
}

/** A Service-style selector (plain map); `undefined` selects nothing, as a Service without selector has no endpoints. */
export function mapSelectorMatches(selector: Record<string, string> | undefined, labels: Record<string, string>): boolean {
  if (!selector) return false;
  return selectorMatches({ matchLabels: selector }, labels);
}

/** The [key, value] equality pairs of a selector: what the label index can use to narrow candidates. */
export function equalityPairsOf(selector: LabelSelector | undefined): [string, unknown][] {
  const pairs: [string, unknown][] = [];
  const matchLabels = selector?.matchLabels;
  for (const key in matchLabels) pairs.push([key, matchLabels[key]]);
  for (const req of selector?.matchExpressions ?? []) {
    if (req.operator === 'In' && req.values?.length === 1) pairs.push([req.key, req.values[0]]);
  }
  return pairs;
}

export function describeSelector(selector: LabelSelector | undefined): string {
  const parts = Object.entries(selector?.matchLabels ?? {}).map(([k, v]) => `${k}=${v}`);
  for (const req of selector?.matchExpressions ?? []) {
    parts.push(`${req.key} ${req.operator}${req.values ? ` (${req.values.join(',')})` : ''}`);
  }
  return parts.length ? parts.join(', ') : '(everything)';
}
