/**
 * A route's backendRefs as Linkerd's outbound index resolves them (linkerd2
 * policy-controller/k8s/index/src/outbound/index/http.rs convert_backend): Services and EgressNetworks, in the parent's
 * namespace when a backendRef names none.
 */
import { backendRefs, rules } from './lists';
import { outboundParentNamespaces } from './parents';
import { POLICY_GROUP } from '../../../core/vocabulary';
import { isRecord } from '../../../util/json';
import { perKeyOfIndex } from '../memo';
import { IndexedObject, MeshIndex } from '../mesh-index';
import { backendTargets } from '../refs';

/** A backendRef Linkerd reads as a Service (see `isServiceBackend`) that has a string name, with the Service it names. */
export interface ServiceBackend {
  readonly backend: Record<string, any>;
  /** Position of the rule in `spec.rules`, and of the backend in that rule's `backendRefs`, for messages. */
  readonly rule: number;
  readonly position: number;
  readonly namespace: string;
  readonly name: string;
  readonly service?: IndexedObject;
  /** It names no namespace and resolves in its parent's, which is not the route's (a consumer route). */
  readonly defaultedToParent: boolean;
}

/** Like the parents: several rules resolve the same backends, so an index's routes resolve them once. */
export const serviceBackends: (route: IndexedObject, index: MeshIndex) => readonly ServiceBackend[] = perKeyOfIndex(resolveServiceBackends);

function resolveServiceBackends(route: IndexedObject, index: MeshIndex): ServiceBackend[] {
  const result: ServiceBackend[] = [];
  const list = rules(route);
  for (let r = 0; r < list.length; r++) {
    const backends = backendRefs(list[r]);
    for (let b = 0; b < backends.length; b++) {
      const backend = backends[b];
      if (!isServiceBackend(backend) || typeof backend.name !== 'string') continue;
      for (const namespace of backendNamespaces(backend, route, index)) {
        result.push({
          backend,
          rule: r,
          position: b,
          namespace,
          name: backend.name,
          service: index.service(namespace, backend.name),
          defaultedToParent: typeof backend.namespace !== 'string' && namespace !== (route.id.namespace ?? ''),
        });
      }
    }
  }
  return result;
}

/** A backendRef Linkerd reads as a Service: kind omitted or `Service`, group omitted, "" or "core". */
export function isServiceBackend(backend: unknown): boolean {
  return isRecord(backend) && backendTargets(backend, '', 'Service');
}

export function isEgressNetworkBackend(backend: unknown): boolean {
  return isRecord(backend) && backendTargets(backend, POLICY_GROUP, 'EgressNetwork');
}

/**
 * The namespaces a backendRef resolves in. Linkerd's outbound index converts a route in each namespace holding one of
 * its Service or EgressNetwork parents, and resolves a backendRef without a namespace there: in the parent's namespace,
 * not the route's (k8s/index/src/outbound/index.rs apply_http → Namespace::apply_http_route → index/http.rs
 * convert_backend). So a consumer route's `{name: orders-v2}` is the parent's orders-v2. A route with no such parent
 * (Gateways only) resolves in its own namespace, as Gateway API says.
 */
export function backendNamespaces(backend: Record<string, any>, route: IndexedObject, index: MeshIndex): readonly string[] {
  if (typeof backend.namespace === 'string') return [backend.namespace];
  const parents = outboundParentNamespaces(route, index);
  return parents.length > 0 ? parents : [route.id.namespace ?? ''];
}
