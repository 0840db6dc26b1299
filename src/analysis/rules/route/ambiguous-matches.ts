import { compareStrings } from '../../../util/compare';
import { isRecord, pushTo } from '../../../util/json';
import { objectLabel } from '../../../util/labels';
import { mergeAscending } from '../../../util/positions';
import { Severity } from '../../finding';
import { IndexedObject, MeshIndex } from '../../model/mesh-index';
import { everyRouteWithInventory, matchesOf, RouteFamily, routeFamily, rules } from '../../model/routes/lists';
import { serviceParents } from '../../model/routes/parents';
import { attachedPorts } from '../../model/service-ports';
import { Rule, RuleArea, RuleContext } from '../../rule';

/** A match in canonical form: defaults filled in, header names lower-cased, lists sorted. */
interface CanonicalMatch {
  readonly key: string;
  /** The match as written; undefined for a rule without matches (the kind's default). */
  readonly match?: Record<string, any>;
  readonly rule: number;
  /** Position in the rule's `matches`; -1 for a rule without matches. */
  readonly position: number;
}

const NO_PAIRS: readonly string[] = Object.freeze([]);

function pairs(list: unknown, lowerName: boolean): readonly string[] {
  // Most matches have no headers or query parameters: answer those without building a list.
  if (!Array.isArray(list) || list.length === 0) return NO_PAIRS;
  return list.filter(isRecord)
    .map((p) => `${String(p.type ?? 'Exact')}:${lowerName ? String(p.name).toLowerCase() : String(p.name)}=${String(p.value)}`)
    .sort(compareStrings);
}

interface HttpParts {
  readonly type: string;
  readonly value: string;
  readonly method: string;
  readonly headers: readonly string[];
  readonly query: readonly string[];
}

function httpParts(m: Record<string, any>): HttpParts {
  const path = isRecord(m.path) ? m.path : {};
  const type = String(path.type ?? 'PathPrefix');
  let value = typeof path.value === 'string' ? path.value : '/';
  // A trailing slash does not change what a PathPrefix matches.
  if (type === 'PathPrefix' && value.length > 1) value = value.replace(/\/+$/, '') || '/';
  return { type, value, method: typeof m.method === 'string' ? m.method : '', headers: pairs(m.headers, true), query: pairs(m.queryParams, false) };
}

function httpKey(m: Record<string, any>): string {
  const { type, value, method, headers, query } = httpParts(m);
  return JSON.stringify([type, value, method, headers, query]);
}

function httpText(m: Record<string, any>): string {
  const { type, value, method, headers, query } = httpParts(m);
  return [`${type} ${value}`, method && `method ${method}`, headers.length ? `headers ${headers.join(' ')}` : '',
    query.length ? `query ${query.join(' ')}` : ''].filter(Boolean).join(', ');
}

function grpcTarget(m: Record<string, any>): string {
  const method = isRecord(m.method) ? m.method : undefined;
  return method ? `${String(method.type ?? 'Exact')} ${String(method.service ?? '*')}/${String(method.method ?? '*')}` : 'any method';
}

function grpcKey(m: Record<string, any>): string {
  return JSON.stringify([grpcTarget(m), pairs(m.headers, true)]);
}

function grpcText(m: Record<string, any>): string {
  const headers = pairs(m.headers, true);
  return [grpcTarget(m), headers.length ? `headers ${headers.join(' ')}` : ''].filter(Boolean).join(', ');
}

/** The key of a rule without matches is the same for every route of a kind. */
const HTTP_DEFAULT_KEY = httpKey({});
const GRPC_DEFAULT_KEY = grpcKey({});

/** What the match says, for messages only (reading it is the costly part, so it waits for a finding). */
function matchText(route: IndexedObject, match: CanonicalMatch): string {
  const grpc = route.id.kind === 'GRPCRoute';
  const m = match.match ?? {};
  return grpc ? grpcText(m) : httpText(m);
}

/** `rules[i].matches[j]`, or `rules[i]` for a rule without matches. */
function matchLocation(match: CanonicalMatch): string {
  return match.position < 0 ? `rules[${match.rule}]` : `rules[${match.rule}].matches[${match.position}]`;
}

function canonicalMatches(route: IndexedObject): CanonicalMatch[] {
  const grpc = route.id.kind === 'GRPCRoute';
  const result: CanonicalMatch[] = [];
  const list = rules(route);
  for (let r = 0; r < list.length; r++) {
    const matches = matchesOf(list[r]);
    // No matches means the kind's default: everything for gRPC, PathPrefix "/" for HTTP.
    if (matches.length === 0) result.push({ key: grpc ? GRPC_DEFAULT_KEY : HTTP_DEFAULT_KEY, rule: r, position: -1 });
    for (let i = 0; i < matches.length; i++) {
      const m = matches[i];
      if (isRecord(m)) result.push({ key: grpc ? grpcKey(m) : httpKey(m), match: m, rule: r, position: i });
    }
  }
  return result;
}

/** Whether the route can have two canonical matches (several rules, or several matches in its one rule). */
function mayRepeat(route: IndexedObject): boolean {
  const list = rules(route);
  return list.length > 1 || (list.length === 1 && matchesOf(list[0]).length > 1);
}

function reportRepeatsWithin(ctx: RuleContext, route: IndexedObject, matches: CanonicalMatch[]): void {
  if (matches.length < 2) return;
  const first = new Map<string, CanonicalMatch>();
  for (const match of matches) {
    const earlier = first.get(match.key);
    if (!earlier) {
      first.set(match.key, match);
      continue;
    }
    const location = matchLocation(match);
    ctx.report(route, `${location} (${matchText(route, match)}) repeats ${matchLocation(earlier)}; the earlier one always wins, so ${location} `
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

/** A route's `spec.hostnames`, lowercased; empty when it has none (it then serves every host). */
function hostnamesOf(route: IndexedObject): string[] {
  const hostnames = route.object.spec?.hostnames;
  return Array.isArray(hostnames) ? hostnames.filter((h): h is string => typeof h === 'string').map((h) => h.toLowerCase()) : [];
}

/**
 * Whether two routes can serve one request's host: the proxy picks a route by its hostnames before its rules
 * (linkerd2-proxy http-route `find`), so routes whose hostnames share none never compete. A wildcard is taken to overlap.
 */
function hostsOverlap(a: IndexedObject, b: IndexedObject): boolean {
  const ha = hostnamesOf(a);
  const hb = hostnamesOf(b);
  if (ha.length === 0 || hb.length === 0) return true;
  return ha.some((x) => hb.some((y) => x === y || x.startsWith('*.') || y.startsWith('*.')));
}

const EVERY_PORT: ReadonlyArray<number | string> = Object.freeze(['*']);

/** The HTTP and gRPC routes, the inventory's included: the routes whose matches compete. */
function matchingRoutes(index: MeshIndex): IndexedObject[] {
  return everyRouteWithInventory(index).filter((route) => {
    const family = routeFamily(route);
    return family === RouteFamily.HTTP || family === RouteFamily.GRPC;
  });
}

/** Services (`namespace/name`) that two or more routes attach to: only there can two routes' matches compete. */
function sharedTargets(index: MeshIndex, routes: IndexedObject[]): Set<string> {
  const firstRoute = new Map<string, IndexedObject>();
  const shared = new Set<string>();
  for (const route of routes) {
    for (const parent of serviceParents(route, index)) {
      const first = firstRoute.get(parent.key);
      if (!first) firstRoute.set(parent.key, route);
      else if (first !== route) shared.add(parent.key);
    }
  }
  return shared;
}

function collectClaims(index: MeshIndex, matchesOfRoute: (route: IndexedObject) => CanonicalMatch[]): Map<string, Claim[]> {
  const claims = new Map<string, Claim[]>();
  const routes = matchingRoutes(index);
  const shared = sharedTargets(index, routes);
  for (const route of routes) {
    const family = routeFamily(route);
    for (const parent of serviceParents(route, index)) {
      if (!shared.has(parent.key)) continue;
      const matches = matchesOfRoute(route);
      const producer = parent.namespace === route.id.namespace;
      for (const port of attachedPorts(parent.ref, parent.service) ?? EVERY_PORT) {
        const prefix = `${parent.key}:${port}|${family}|`;
        // A route claims each distinct match once per port; a one-match route needs no bookkeeping for that.
        const seen = matches.length > 1 ? new Set<string>() : undefined;
        for (const match of matches) {
          if (seen) {
            if (seen.has(match.key)) continue;
            seen.add(match.key);
          }
          pushTo(claims, prefix + match.key, { route, match, producer });
        }
      }
    }
  }
  return claims;
}

/**
 * The claims of one key in order, and for each the first earlier one it competes with: same audience (`sameAudience`)
 * and overlapping hostnames. A consumer claim competes only with producer claims and its own namespace's, so only
 * those are looked at: thousands of consumer routes of as many namespaces on one Service stay linear.
 */
class EarlierClaims {
  private readonly producers: number[] = [];
  private readonly byNamespace = new Map<string | undefined, number[]>();

  constructor(private readonly claims: readonly Claim[]) {}

  /** The first of claims[0..k) that competes with claims[k]; then records claims[k]. Call with k = 0, 1, 2, … */
  public rivalOf(k: number): Claim | undefined {
    const claim = this.claims[k];
    const ns = claim.route.id.namespace;
    // A producer claim competes with every earlier claim.
    const rival = claim.producer ? this.claims.slice(0, k).find((other) => hostsOverlap(other.route, claim.route))
      : this.firstOverlapping(claim, mergeAscending(this.producers, this.byNamespace.get(ns) ?? []));
    if (claim.producer) this.producers.push(k);
    pushTo(this.byNamespace, ns, k);
    return rival;
  }

  private firstOverlapping(claim: Claim, positions: readonly number[]): Claim | undefined {
    for (const j of positions) {
      const other = this.claims[j];
      if (sameAudience(other, claim) && hostsOverlap(other.route, claim.route)) return other;
    }
    return undefined;
  }
}

function byName(a: Claim, b: Claim): number {
  return compareStrings(a.route.id.namespace ?? '', b.route.id.namespace ?? '') || compareStrings(a.route.id.name, b.route.id.name);
}

function reportAcrossRoutes(ctx: RuleContext, claims: Map<string, Claim[]>): void {
  const reported = new Set<string>();
  for (const [key, list] of claims) {
    // One claim has no rival; almost every key is like that.
    if (list.length < 2) continue;
    const distinct = [...new Map(list.map((c) => [c.route, c])).values()].sort(byName);
    const target = key.slice(0, key.indexOf('|'));
    const earlier = new EarlierClaims(distinct);
    distinct.forEach((claim, k) => {
      const rival = earlier.rivalOf(k);
      if (!rival) return;
      const location = matchLocation(claim.match);
      const once = `${claim.route.id.namespace}/${claim.route.id.name}|${location}|${objectLabel(rival.route)}`;
      if (reported.has(once)) return;
      reported.add(once);
      ctx.report(claim.route, `${location} (${matchText(claim.route, claim.match)}) on Service ${target} is identical to ${matchLocation(rival.match)} `
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
    certainty: 'Depends on: the order in which the routes were created, which the manifests do not show.',
    title: 'No two routes on one Service port share an identical match, and no route repeats a match',
    why: 'When two routes attached to the same Service port have the same match, the older route wins (ties by name). '
      + 'Creation order is not visible in the manifests and changes on re-creation, so traffic can move between the two '
      + 'after a redeploy. A match repeated inside one route is dead: the first occurrence always wins.',
    fix: 'Put the rules for one Service port into one route, or make the matches distinguishable (path, header, method).',
    linkerdSource: 'policy-controller/grpc/src/outbound.rs timestamp_then_name',
    badExample: 'kind: HTTPRoute\nmetadata: {name: a}\nspec: {parentRefs: [{group: core, kind: Service, name: orders, port: 8080}], rules: [{backendRefs: [{name: orders-v1, port: 8080}]}]}\n---\n'
      + 'kind: HTTPRoute\nmetadata: {name: b}\nspec: {parentRefs: [{group: core, kind: Service, name: orders, port: 8080}], rules: [{backendRefs: [{name: orders-v2, port: 8080}]}]}',
    goodExample: 'kind: HTTPRoute\nmetadata: {name: a}\nspec:\n  parentRefs: [{group: core, kind: Service, name: orders, port: 8080}]\n  rules:\n'
      + '  - matches: [{headers: [{name: x-canary, value: "true"}]}]\n    backendRefs: [{name: orders-v2, port: 8080}]\n  - backendRefs: [{name: orders-v1, port: 8080}]',
  },
  check(ctx) {
    const cache = new Map<IndexedObject, CanonicalMatch[]>();
    const matchesOfRoute = (route: IndexedObject): CanonicalMatch[] => {
      let matches = cache.get(route);
      if (!matches) {
        matches = canonicalMatches(route);
        cache.set(route, matches);
      }
      return matches;
    };
    for (const route of matchingRoutes(ctx.index)) {
      if (!route.inventory && mayRepeat(route)) reportRepeatsWithin(ctx, route, matchesOfRoute(route));
    }
    reportAcrossRoutes(ctx, collectClaims(ctx.index, matchesOfRoute));
  },
};
