import { Severity } from '../../finding';
import { IndexedObject, MeshIndex } from '../../model/mesh-index';
import { Rule, RuleArea, RuleContext } from '../../rule';
import {
  RouteFamily, attachedPorts, everyRouteWithInventory, isRecord, listOf, matchesOf, objectLabel, pushTo, routeFamily, rules, serviceParents,
} from '../route-helpers';

/** A match in canonical form: defaults filled in, header names lower-cased, lists sorted. */
interface CanonicalMatch {
  readonly key: string;
  readonly text: string;
  /** `rules[i].matches[j]`, or `rules[i]` for a rule without matches. */
  readonly location: string;
}

function pairs(list: unknown, lowerName: boolean): string[] {
  return listOf(list).filter(isRecord)
    .map((p) => `${String(p.type ?? 'Exact')}:${lowerName ? String(p.name).toLowerCase() : String(p.name)}=${String(p.value)}`)
    .sort();
}

function httpMatch(m: Record<string, any>): { key: string; text: string } {
  const path = isRecord(m.path) ? m.path : {};
  const type = String(path.type ?? 'PathPrefix');
  let value = typeof path.value === 'string' ? path.value : '/';
  // A trailing slash does not change what a PathPrefix matches.
  if (type === 'PathPrefix' && value.length > 1) value = value.replace(/\/+$/, '') || '/';
  const headers = pairs(m.headers, true);
  const query = pairs(m.queryParams, false);
  const method = typeof m.method === 'string' ? m.method : '';
  const text = [`${type} ${value}`, method && `method ${method}`, headers.length ? `headers ${headers.join(' ')}` : '',
    query.length ? `query ${query.join(' ')}` : ''].filter(Boolean).join(', ');
  return { key: JSON.stringify([type, value, method, headers, query]), text };
}

function grpcMatch(m: Record<string, any>): { key: string; text: string } {
  const method = isRecord(m.method) ? m.method : undefined;
  const target = method ? `${String(method.type ?? 'Exact')} ${String(method.service ?? '*')}/${String(method.method ?? '*')}` : 'any method';
  const headers = pairs(m.headers, true);
  return { key: JSON.stringify([target, headers]), text: [target, headers.length ? `headers ${headers.join(' ')}` : ''].filter(Boolean).join(', ') };
}

function canonicalMatches(route: IndexedObject): CanonicalMatch[] {
  const read = route.id.kind === 'GRPCRoute' ? grpcMatch : httpMatch;
  const result: CanonicalMatch[] = [];
  rules(route).forEach((rule, r) => {
    const matches = matchesOf(rule);
    // No matches means the kind's default: everything for gRPC, PathPrefix "/" for HTTP.
    if (matches.length === 0) result.push({ ...read({}), location: `rules[${r}]` });
    matches.forEach((m, i) => {
      if (isRecord(m)) result.push({ ...read(m), location: `rules[${r}].matches[${i}]` });
    });
  });
  return result;
}

function reportRepeatsWithin(ctx: RuleContext, route: IndexedObject, matches: CanonicalMatch[]): void {
  const first = new Map<string, CanonicalMatch>();
  for (const match of matches) {
    const earlier = first.get(match.key);
    if (!earlier) {
      first.set(match.key, match);
      continue;
    }
    ctx.report(route, `${match.location} (${match.text}) repeats ${earlier.location}; the earlier one always wins, so ${match.location} `
      + 'is dead configuration. Remove it or make it more specific.');
  }
}

interface Claim {
  readonly route: IndexedObject;
  readonly match: CanonicalMatch;
  readonly producer: boolean;
}

/** Both routes are seen by the same clients: same namespace, or one of them is a producer route (seen by all). */
function sameAudience(a: Claim, b: Claim): boolean {
  return a.route.id.namespace === b.route.id.namespace || a.producer || b.producer;
}

function collectClaims(index: MeshIndex, cache: Map<IndexedObject, CanonicalMatch[]>): Map<string, Claim[]> {
  const claims = new Map<string, Claim[]>();
  for (const route of everyRouteWithInventory(index)) {
    const family = routeFamily(route);
    if (family !== RouteFamily.HTTP && family !== RouteFamily.GRPC) continue;
    const matches = cache.get(route) ?? canonicalMatches(route);
    cache.set(route, matches);
    for (const parent of serviceParents(route, index)) {
      const producer = parent.namespace === route.id.namespace;
      for (const port of attachedPorts(parent.ref, parent.service) ?? ['*']) {
        const seen = new Set<string>();
        for (const match of matches) {
          if (seen.has(match.key)) continue;
          seen.add(match.key);
          pushTo(claims, `${parent.namespace}/${parent.name}:${port}|${family}|${match.key}`, { route, match, producer });
        }
      }
    }
  }
  return claims;
}

function byName(a: Claim, b: Claim): number {
  return (a.route.id.namespace ?? '').localeCompare(b.route.id.namespace ?? '') || a.route.id.name.localeCompare(b.route.id.name);
}

function reportAcrossRoutes(ctx: RuleContext, claims: Map<string, Claim[]>): void {
  const reported = new Set<string>();
  for (const [key, list] of claims) {
    const distinct = [...new Map(list.map((c) => [c.route, c])).values()].sort(byName);
    const target = key.slice(0, key.indexOf('|'));
    distinct.forEach((claim, k) => {
      const rival = distinct.slice(0, k).find((other) => sameAudience(other, claim));
      const once = `${claim.route.id.namespace}/${claim.route.id.name}|${claim.match.location}|${rival ? objectLabel(rival.route) : ''}`;
      if (!rival || reported.has(once)) return;
      reported.add(once);
      ctx.report(claim.route, `${claim.match.location} (${claim.match.text}) on Service ${target} is identical to ${rival.match.location} `
        + `of ${objectLabel(rival.route)}; Linkerd picks the older route (then the name), so which one serves these requests `
        + 'depends on creation order. Merge the routes or make the matches differ.');
    });
  }
}

/** Identical matches are legal; which one wins is decided by timestamps nobody reads in YAML. */
export const ambiguousMatches: Rule = {
  id: 'LKD-ROUTE-013',
  area: RuleArea.ROUTE,
  severity: Severity.WARNING,
  doc: {
    title: 'No two routes on one Service port share an identical match, and no route repeats a match',
    why: 'When two routes attached to the same Service port have the same match, the older route wins (ties by name). '
      + 'Creation order is not visible in the manifests and changes on re-creation, so traffic can move between the two '
      + 'after a redeploy. A match repeated inside one route is dead: the first occurrence always wins.',
    fix: 'Put the rules for one Service port into one route, or make the matches distinguishable (path, header, method).',
    badExample: 'kind: HTTPRoute\nmetadata: {name: a}\nspec: {parentRefs: [{group: core, kind: Service, name: orders, port: 8080}], rules: [{backendRefs: [{name: orders-v1, port: 8080}]}]}\n---\n'
      + 'kind: HTTPRoute\nmetadata: {name: b}\nspec: {parentRefs: [{group: core, kind: Service, name: orders, port: 8080}], rules: [{backendRefs: [{name: orders-v2, port: 8080}]}]}',
    goodExample: 'kind: HTTPRoute\nmetadata: {name: a}\nspec:\n  parentRefs: [{group: core, kind: Service, name: orders, port: 8080}]\n  rules:\n'
      + '  - matches: [{headers: [{name: x-canary, value: "true"}]}]\n    backendRefs: [{name: orders-v2, port: 8080}]\n  - backendRefs: [{name: orders-v1, port: 8080}]',
  },
  check(ctx) {
    const cache = new Map<IndexedObject, CanonicalMatch[]>();
    for (const route of everyRouteWithInventory(ctx.index)) {
      const family = routeFamily(route);
      if (route.inventory || (family !== RouteFamily.HTTP && family !== RouteFamily.GRPC)) continue;
      const matches = canonicalMatches(route);
      cache.set(route, matches);
      reportRepeatsWithin(ctx, route, matches);
    }
    reportAcrossRoutes(ctx, collectClaims(ctx.index, cache));
  },
};
