/**
 * Traffic shares per route rule, as the outbound proxy splits them: weight ÷ sum of the rule's weights.
 * A rule without backendRefs sends everything to its parent Service, which Linkerd uses as the default backend.
 */
import { MAX_WEIGHT } from '../../core/backend-weights';
import { GATEWAY_GROUP, POLICY_GROUP } from '../../core/vocabulary';
import { ResourceId, isCoreGroup } from '../model/manifest';
import { MeshIndex } from '../model/mesh-index';
import { IndexedObject } from '../model/object-store';
import { specOf } from '../model/objects';
import { refList } from '../model/refs';
import { backendNamespaces } from '../model/routes/backends';

export interface BackendShare {
  readonly kind: string;
  readonly namespace: string;
  readonly name: string;
  readonly port?: number;
  /** The weight Linkerd uses (1 when omitted; 0 when invalid, since such a backend gets nothing right). */
  readonly weight: number;
  /** 0..1 of the rule's requests. */
  readonly share: number;
  /** `share` as a percentage, rounded to two decimals. */
  readonly percent: number;
  /** True when the backend is the parent Service standing in for a rule without backendRefs. */
  readonly implicit: boolean;
}

export interface RuleShares {
  readonly route: ResourceId;
  readonly ruleIndex: number;
  /** The Service parent this split applies to, when the route has one. */
  readonly parent?: string;
  readonly backends: BackendShare[];
}

function effectiveWeight(weight: unknown): number {
  if (weight === undefined) return 1;
  return typeof weight === 'number' && Number.isInteger(weight) && weight >= 0 && weight <= MAX_WEIGHT ? weight : 0;
}

function serviceParent(route: IndexedObject): { name: string; namespace: string; port?: number } | undefined {
  const parent = refList(specOf(route).parentRefs).find((p) => p.kind === 'Service' && p.group !== undefined && isCoreGroup(p.group)) as any;
  if (!parent || typeof parent.name !== 'string') return undefined;
  return { name: parent.name, namespace: parent.namespace ?? route.id.namespace ?? '', port: typeof parent.port === 'number' ? parent.port : undefined };
}

function ruleBackends(index: MeshIndex, route: IndexedObject, rule: any): Array<Omit<BackendShare, 'share' | 'percent'>> {
  const refs = refList(rule?.backendRefs) as any[];
  const parent = serviceParent(route);
  if (refs.length > 0) {
    return refs.map((b) => ({
      kind: typeof b.kind === 'string' ? b.kind : 'Service',
      // As Linkerd's outbound index resolves it: without a namespace, in the parent's.
      namespace: backendNamespaces(b, route, index)[0],
      name: String(b.name ?? ''),
      port: typeof b.port === 'number' ? b.port : undefined,
      weight: effectiveWeight(b.weight),
      implicit: false,
    }));
  }
  return parent ? [{ kind: 'Service', ...parent, weight: 1, implicit: true }] : [];
}

function withShares(backends: Array<Omit<BackendShare, 'share' | 'percent'>>): BackendShare[] {
  const total = backends.reduce((sum, b) => sum + b.weight, 0);
  return backends.map((b) => {
    const share = total > 0 ? b.weight / total : 0;
    return { ...b, share, percent: Math.round(share * 10_000) / 100 };
  });
}

/** Every rule of every route in the output (both HTTPRoute groups and GRPCRoute) with its backends' shares. */
export function routeShares(index: MeshIndex): RuleShares[] {
  const routes = [
    ...index.own(GATEWAY_GROUP, 'HTTPRoute'), ...index.own(GATEWAY_GROUP, 'GRPCRoute'), ...index.own(POLICY_GROUP, 'HTTPRoute'),
  ];
  const out: RuleShares[] = [];
  for (const route of routes) {
    const rules = Array.isArray(specOf(route).rules) ? specOf(route).rules : [];
    const parent = serviceParent(route);
    rules.forEach((rule: unknown, ruleIndex: number) => {
      const backends = withShares(ruleBackends(index, route, rule));
      if (backends.length > 0) out.push({ route: route.id, ruleIndex, parent: parent && `${parent.namespace}/${parent.name}`, backends });
    });
  }
  return out;
}
