/**
 * The shared Gateway API route cases (../shared/conformance/gateway-api-route-cases.json), placed into the mesh-lab
 * baseline so that their parents and backends exist; used by the engine test and the CLI --crds test.
 */
import * as fs from 'fs';
import { meshLab } from './mesh-fixture';
import { ROUTE_CASES } from './shared';

export interface RouteCase {
  readonly id: string;
  readonly kind: string;
  readonly valid: boolean;
  readonly namespace: string;
  readonly spec: Record<string, unknown>;
}

/** The HTTP cases use Service port 80, the gRPC ones 9090 / 9091 (by name grpc / grpc-admin). */
const EXTRA_PORTS = [{ name: 'web', port: 80, targetPort: 8080 }, { name: 'grpc', port: 9090 }, { name: 'grpc-admin', port: 9091 }];

/** The baseline mesh without its own route, each orders Service also exposing the ports the cases use. */
export function meshFor(routeCase: RouteCase): any[] {
  const objects = meshLab().filter((o) => o.kind !== 'HTTPRoute');
  for (const o of objects) {
    if (o.kind === 'Service' && ['orders', 'orders-v1', 'orders-v2'].includes(o.metadata.name)) o.spec.ports.push(...EXTRA_PORTS);
  }
  const route = {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: routeCase.kind,
    metadata: { name: routeCase.id, namespace: routeCase.namespace },
    spec: JSON.parse(JSON.stringify(routeCase.spec)),
  };
  return [...objects, route];
}

/** CRD-valid routes that Linkerd 2.20 itself drops or ignores, and the engine rule that says so. */
export const LINKERD_DROPS: Record<string, string> = {
  'http-valid-all-weights-zero': 'LKD-ROUTE-009',
  'http-valid-parentref-service-default-group': 'LKD-ROUTE-001',
  'http-valid-timeouts-compound': 'LKD-ROUTE-014',
  'http-valid-mirror-with-port': 'LKD-ROUTE-011',
  'http-valid-backend-group-core-no-port': 'LKD-ROUTE-006',
  'http-valid-empty-rules-list': 'LKD-ROUTE-020',
  // Not in the brief's list, but also dropped by Linkerd: a URLRewrite filter fails conversion of the whole route.
  'http-valid-rewrite-prefix-defaulted-match': 'LKD-ROUTE-011',
  // CRD-valid, but Linkerd's admission webhook refuses a RegularExpression GRPCRoute method (routes/grpc.rs try_match).
  'grpc-valid-regex-method': 'LKD-ROUTE-024',
};

export function loadRouteCases(): RouteCase[] {
  return fs.existsSync(ROUTE_CASES) ? JSON.parse(fs.readFileSync(ROUTE_CASES, 'utf8')) : [];
}
