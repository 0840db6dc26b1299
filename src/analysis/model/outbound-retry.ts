/**
 * Which of a Service's retry annotations the client proxy applies on each port, read from the port's outbound view
 * (outbound.ts): linkerd2 policy-controller/grpc/src/outbound.rs `to_proto` passes the HTTP or gRPC retry with the
 * routes it serves.
 */
import { IndexedObject, MeshIndex } from './mesh-index';
import { OutboundProtocol, outboundPolicy, servedTo, ServicePortProtocol, servicePortProtocol } from './outbound';
import { RouteFamily } from './routes/lists';
import { servicePorts } from './service-ports';
import { AnalysisContext } from '../options';

/** Which of a Service's retry annotations the client proxy applies on a port. */
export enum RetryFamily {
  /** `retry.linkerd.io/http`: HTTP routes, and the default route while none is served. */
  HTTP = 'http',
  /** `retry.linkerd.io/grpc`: only where GRPCRoutes are served. */
  GRPC = 'grpc',
}

/** Which of the Service's retry annotations one of its ports uses. */
export interface PortRetryUse {
  readonly port: number;
  /** The families some client of this port is served with (empty: the port is opaque, or serves TLS/TCP routes only). */
  readonly families: ReadonlySet<RetryFamily>;
  /** The protocol and where it comes from, for messages. */
  readonly protocol: ServicePortProtocol;
}

function familiesOfServed(family: RouteFamily | undefined, protocol: OutboundProtocol): RetryFamily[] {
  if (protocol === OutboundProtocol.OPAQUE || protocol === OutboundProtocol.UNKNOWN) return [];
  if (family === RouteFamily.GRPC) return [RetryFamily.GRPC];
  return family === undefined || family === RouteFamily.HTTP ? [RetryFamily.HTTP] : [];
}

/**
 * The retry annotation family each port of a Service uses (grpc/src/outbound.rs to_proto): an opaque or unknown
 * appProtocol (or an opaque port) takes none; a port serving GRPCRoutes passes the Service's gRPC retry; HTTP routes,
 * and the default route when no route is served, take the HTTP retry; TLS and TCP routes take none. Consumer routes
 * are counted for the namespaces they serve, so a family is listed when any client uses it.
 */
export function serviceRetryUse(index: MeshIndex, context: AnalysisContext, service: IndexedObject): PortRetryUse[] {
  const views = outboundPolicy(index, context).get(service);
  return servicePorts(service).map(({ port }) => {
    const view = views?.get(port);
    const protocol = view?.protocol ?? servicePortProtocol(index, service, port, context);
    const scopes = view ? [undefined, ...new Set(view.attached.filter((r) => !r.producer).map((r) => r.clients))] : [undefined];
    const families = new Set(scopes.flatMap((scope) => familiesOfServed(view ? servedTo(view, scope).family : undefined, protocol.protocol)));
    return { port, families, protocol };
  });
}
