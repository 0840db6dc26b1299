/**
 * Who sees which routes of a Service port: producer routes (in the Service's namespace) apply to every client, consumer
 * routes only to clients in their own namespace (policy-controller/k8s/index/src/outbound/index.rs). Rules that ask
 * what each consumer namespace is served split the port's routes once, so thousands of consumer namespaces on one
 * Service stay linear.
 */
import { PortRoute, ServedRoutes, ServicePortPolicy, servedTo } from './outbound';
import { pushTo } from '../../util/json';
import { mergeAscending } from '../../util/positions';

/** Positions in a port's `attached` routes: the producer routes, and each consumer namespace's own (ascending). */
export interface RouteAudiences {
  readonly producers: readonly number[];
  readonly consumers: ReadonlyMap<string, readonly number[]>;
}

const NO_CONSUMERS: ReadonlyMap<string, readonly number[]> = new Map();

export function routeAudiences(attached: readonly PortRoute[]): RouteAudiences {
  const producers: number[] = [];
  // Most ports have producer routes only (or none): no map is built for them.
  let consumers: Map<string, number[]> | undefined;
  attached.forEach((route, i) => {
    if (route.producer) producers.push(i);
    else pushTo(consumers ??= new Map(), route.clients, i);
  });
  return { producers, consumers: consumers ?? NO_CONSUMERS };
}

/**
 * What clients in consumer namespace `namespace` are served on the port: servedTo over only the routes they can see
 * (the producer routes and theirs, in attached order), the same answer as servedTo(view, namespace) without filtering
 * every route of the port again for each consumer namespace.
 */
export function servedToConsumers(view: ServicePortPolicy, audiences: RouteAudiences, namespace: string): ServedRoutes {
  const visible = mergeAscending(audiences.producers, audiences.consumers.get(namespace) ?? []).map((i) => view.attached[i]);
  return servedTo({ ...view, attached: visible }, namespace);
}
