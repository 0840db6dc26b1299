/** What HTTPRoute and GRPCRoute share: a Service parent (always group core + port), annotations, lazy rules. */
import { Construct } from 'constructs';
import { RouteBackend, checkRuleWeights } from './route-backend';
import { ServiceReference } from './service-reference';
import { RouteFamily, UnmatchedRequests, checkUnmatchedValue, coverageKey, registerCoverage, rulesCoverAll, validateUnmatched } from './unmatched';
import { MeshResource } from '../base';
import { check, fail } from '../core/errors';
import { validatePortNumber } from '../core/names';
import { requireList } from '../core/runtime-checks';
import { UNMATCHED_ANNOTATION } from '../core/unmatched-requests';

export const MAX_RULES = 16;

/** Props every Service-parented route takes. */
export interface ServiceRouteProps {
  /** The Service whose traffic the route shapes (the parent). */
  readonly service: ServiceReference;
  /** The Service port the route applies to. */
  readonly port: number;
  /**
   * What happens to requests no rule matches. Linkerd drops the Service's default route once any route attaches, so
   * they get 404 unless some route has a match-all rule; `ROUTE_TO_SERVICE` writes one beside this route (to the
   * parent Service, without this route's retries and timeouts).
   * @default - synth fails (LKD-ROUTE-025) when every rule has matches and no route of the app on the same Service port matches the rest
   */
  readonly unmatched?: UnmatchedRequests;
  /**
   * Name of the match-all companion route `UnmatchedRequests.ROUTE_TO_SERVICE` writes.
   * @default `<name>-unmatched`
   */
  readonly unmatchedRouteName?: string;
}

/** Namespaces are written only when they differ from the route's: a same-namespace ref reads as the default. */
function otherNamespace(namespace: string | undefined, routeNamespace: string | undefined): string | undefined {
  return namespace === routeNamespace ? undefined : namespace;
}

export function renderServiceParent(scope: Construct, props: ServiceRouteProps, routeNamespace: string | undefined): Record<string, any> {
  check(props.service instanceof ServiceReference, scope, 'LKD-ROUTE-002', 'service is required.', 'Pass service: ServiceReference.fromService(svc).');
  props.service._validate(scope, 'parent')._claim(scope);
  validatePortNumber(scope, props.port, 'parent port');
  const known = props.service._ports();
  if (known && !known.includes(props.port)) {
    fail(scope, 'LKD-ROUTE-004',
      `Service ${props.service.name} has no port ${props.port} (it exposes ${known?.join(', ')}).`,
      'Attach the route to one of the Service\'s ports.');
  }
  // group "core" is never omitted: the Gateway API would default it to gateway.networking.k8s.io and Linkerd would ignore the route.
  return { group: 'core', kind: 'Service', name: props.service.name, namespace: otherNamespace(props.service.namespace, routeNamespace), port: props.port };
}

/**
 * A backend's namespace as it must be written. Linkerd's outbound index resolves a backendRef without a namespace in
 * its parent's namespace (outbound/index.rs converts a route's backends with the parent's Namespace index), Gateway API
 * in the route's, and a ServiceReference without one means the route's. Left out only where all three agree.
 */
function backendNamespace(scope: Construct, target: ServiceReference, where: string, routeNamespace: string | undefined,
  parentNamespace: string | undefined): string | undefined {
  const namespace = target.namespace ?? routeNamespace;
  if (namespace === undefined && parentNamespace !== undefined) {
    fail(scope, 'LKD-ROUTE-007',
      `${where} names Service ${target.name} in the route's namespace, which is not set, while the parent Service is in ${parentNamespace}: `
      + `Linkerd would look the backend up in ${parentNamespace}.`,
      'Set the route\'s namespace (or its chart\'s), or give the backend\'s ServiceReference a namespace.');
  }
  return namespace === routeNamespace && namespace === (parentNamespace ?? routeNamespace) ? undefined : namespace;
}

export function renderBackends(
  scope: Construct, backends: RouteBackend[] | undefined, where: string, routeNamespace: string | undefined, parentNamespace: string | undefined,
): Record<string, any>[] | undefined {
  if (backends === undefined) return undefined;
  requireList<RouteBackend>(scope, backends, `${where} backends`, (b) => b instanceof RouteBackend, 'RouteBackend.service(...) values');
  if (backends.length === 0) return undefined;
  // Each backend is validated before anything reads it, so a bad one is named rather than breaking the sums below.
  const refs = backends.map((b, i): Record<string, any> => {
    const ref = b._toKube(scope, `${where}.backendRefs[${i}]`);
    const namespace = backendNamespace(scope, b.target, `${where}.backendRefs[${i}]`, routeNamespace, parentNamespace);
    b.target._claim(scope);
    return { ...ref, namespace };
  });
  checkRuleWeights(scope, backends, where);
  const seen = new Set<string>();
  return refs.map((ref) => {
    const key = `${ref.namespace ?? ''}/${ref.name}:${ref.port}`;
    if (seen.has(key)) {
      fail(scope, 'LKD-ROUTE-010',
        `${where} lists backend ${ref.name}:${ref.port} twice.`,
        'Merge them into one backend with the summed weight.');
    }
    seen.add(key);
    return ref;
  });
}

export abstract class ServiceRoute extends MeshResource {
  protected checkRuleCount(count: number): void {
    if (count >= MAX_RULES) {
      fail(this, 'LKD-INPUT-006',
        `a route holds at most ${MAX_RULES} rules.`,
        'Split the rules over several routes.');
    }
  }

  /**
   * Registers the route for the app's coverage check and adds the synth-time check of unmatched requests (see
   * unmatched.ts for why Linkerd 404s them). `kind` is HTTPRoute or GRPCRoute.
   * @internal
   */
  protected _watchUnmatched(props: ServiceRouteProps, family: RouteFamily, kind: string, rules: Record<string, any>[]): void {
    checkUnmatchedValue(this, props.unmatched);
    const serviceNamespace = props.service.namespace ?? this.namespace ?? '';
    const key = coverageKey(family, `service:${serviceNamespace}/${props.service.name}:${props.port}`);
    // A route outside the Service's namespace is a consumer route: it serves only clients in its own namespace.
    const clients = serviceNamespace === (this.namespace ?? '') ? '' : this.namespace ?? '';
    const ownCoversAll = () => rulesCoverAll(rules, family);
    registerCoverage(this, key, clients, ownCoversAll);
    // The choice reaches the engine through the manifest: its LKD-ROUTE-025 stays silent on a route whose 404 is intended.
    if (props.unmatched === UnmatchedRequests.NOT_FOUND) this.apiObject.metadata.addAnnotation(UNMATCHED_ANNOTATION, props.unmatched);
    const outcome = family === 'grpc' ? 'fails with gRPC status UNIMPLEMENTED' : 'gets 404';
    this.node.addValidation({
      validate: () => (rules.length === 0 ? [] : validateUnmatched(this, {
        unmatched: props.unmatched, what: `${kind} ${this.name}`, parent: `Service ${props.service.name} port ${props.port}`, key, clients, ownCoversAll, outcome,
      })),
    });
  }
}

/** The companion route's name: `<name>-unmatched` unless given. */
export function unmatchedRouteName(props: ServiceRouteProps & { readonly name: string }): string {
  return props.unmatchedRouteName ?? `${props.name}-unmatched`;
}
