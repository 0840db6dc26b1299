/**
 * Single mutations of the valid mesh-lab output, each a mistake people make in real YAML, with the finding the
 * analysis must give for it: the severity, the rule and the resource it must be reported ON (the object to fix, not
 * merely some object). Used by the mutation catch-rate test and the error-message review.
 */
import { Testing } from 'cdk8s';
import { MeshLab } from '../../examples/mesh-lab/mesh-lab';

export type Severity = 'error' | 'warning';

export interface ExpectedFinding {
  readonly severity: Severity;
  readonly ruleId: string;
  readonly kind: string;
  readonly name: string;
}

export interface Mutation {
  /** The kind of mistake (the catch rate is reported per kind). */
  readonly kind: string;
  /** This instance of it. */
  readonly instance: string;
  readonly expected: ExpectedFinding;
  /** Mutates a deep copy of the mesh-lab objects in place. */
  apply(objects: any[]): void;
}

/** The mesh-lab objects as `cdk8s synth` writes them (all checks pass). */
export function meshLabObjects(): any[] {
  return Testing.synth(new MeshLab(Testing.app(), 'mesh-lab'));
}

function find(objects: any[], kind: string, name: string): any {
  const found = objects.find((o) => o.kind === kind && o.metadata?.name === name);
  if (!found) throw new Error(`mesh-lab has no ${kind} ${name}`);
  return found;
}

function remove(objects: any[], kind: string, name: string): void {
  objects.splice(objects.indexOf(find(objects, kind, name)), 1);
}

const route = (objects: any[]) => find(objects, 'HTTPRoute', 'orders-split');
const server = (objects: any[]) => find(objects, 'Server', 'orders-http');
const policy = (objects: any[]) => find(objects, 'AuthorizationPolicy', 'client-to-orders');
const container = (objects: any[], deployment: string) => find(objects, 'Deployment', deployment).spec.template.spec.containers[0];

function expectOn(severity: Severity, ruleId: string, kind: string, name: string): ExpectedFinding {
  return { severity, ruleId, kind, name };
}

const onRoute = (severity: Severity, ruleId: string) => expectOn(severity, ruleId, 'HTTPRoute', 'orders-split');
const onServer = (severity: Severity, ruleId: string) => expectOn(severity, ruleId, 'Server', 'orders-http');
const onPolicy = (severity: Severity, ruleId: string) => expectOn(severity, ruleId, 'AuthorizationPolicy', 'client-to-orders');

function mutation(kind: string, instance: string, expected: ExpectedFinding, apply: (objects: any[]) => void): Mutation {
  return { kind, instance, expected, apply };
}

function addRetry(objects: any[], match: Record<string, unknown> | undefined): void {
  const r = route(objects);
  r.metadata.annotations = { ...r.metadata.annotations, 'retry.linkerd.io/http': '5xx' };
  if (match) r.spec.rules[0].matches = [match];
}

function addFilter(objects: any[], filter: Record<string, unknown>, onBackend: boolean): void {
  const rule = route(objects).spec.rules[0];
  const owner = onBackend ? rule.backendRefs[0] : rule;
  owner.filters = [filter];
}

const MIRROR = { type: 'RequestMirror', requestMirror: { backendRef: { name: 'orders-v2', port: 8080 } } };
const REWRITE = { type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/v2' } } };

/** Every mutation, in a stable order. */
export const MUTATIONS: Mutation[] = [
  // A referenced object is deleted.
  mutation('delete referenced Service', 'parent Service orders', onRoute('error', 'LKD-ROUTE-002'), (o) => remove(o, 'Service', 'orders')),
  mutation('delete referenced Service', 'backend Service orders-v1', onRoute('error', 'LKD-ROUTE-007'), (o) => remove(o, 'Service', 'orders-v1')),
  mutation('delete referenced Service', 'backend Service orders-v2', onRoute('error', 'LKD-ROUTE-007'), (o) => remove(o, 'Service', 'orders-v2')),
  mutation('delete referenced ServiceAccount', 'client (in MeshTLSAuthentication identityRefs)',
    expectOn('error', 'LKD-POL-003', 'MeshTLSAuthentication', 'client-sa'), (o) => remove(o, 'ServiceAccount', 'client')),
  mutation('delete referenced Server', 'orders-http (AuthorizationPolicy target)', onPolicy('error', 'LKD-POL-001'), (o) => remove(o, 'Server', 'orders-http')),
  mutation('delete referenced MeshTLSAuthentication', 'client-sa (required by the policy)', onPolicy('error', 'LKD-POL-002'),
    (o) => remove(o, 'MeshTLSAuthentication', 'client-sa')),

  // The container port a Server names changes under it. Linkerd then governs nothing on that pod's real port (a name
  // resolves per pod; a number applies whether or not it is declared): the port falls back to the default policy,
  // which leaves it open to plaintext, and that is what the analysis reports, on the workload.
  ...['orders-v1', 'orders-v2'].map((d) => mutation('rename a container port the Server uses', `${d}: http -> web (Server port: http)`,
    expectOn('warning', 'LKD-POL-011', 'Deployment', d), (o) => {
      server(o).spec.port = 'http';
      container(o, d).ports[0].name = 'web';
    })),
  mutation('rename a container port the Server uses', 'orders-v1: 8080 -> 8081 (Server port: 8080)', expectOn('warning', 'LKD-POL-011', 'Deployment', 'orders-v1'),
    (o) => { container(o, 'orders-v1').ports[0].containerPort = 8081; }),
  mutation('rename a container port the Server uses', 'both: http -> web (Server port: http)', onServer('warning', 'LKD-POL-007'), (o) => {
    server(o).spec.port = 'http';
    container(o, 'orders-v1').ports[0].name = 'web';
    container(o, 'orders-v2').ports[0].name = 'web';
  }),

  // The Service parentRef group.
  mutation('drop / change the parentRef group', 'group omitted', onRoute('error', 'LKD-ROUTE-001'), (o) => { delete route(o).spec.parentRefs[0].group; }),
  mutation('drop / change the parentRef group', 'group gateway.networking.k8s.io', onRoute('error', 'LKD-ROUTE-001'),
    (o) => { route(o).spec.parentRefs[0].group = 'gateway.networking.k8s.io'; }),
  mutation('drop / change the parentRef group', 'group policy.linkerd.io', onRoute('error', 'LKD-ROUTE-001'),
    (o) => { route(o).spec.parentRefs[0].group = 'policy.linkerd.io'; }),

  // Weights.
  mutation('zero the weights', 'both backends weight 0', onRoute('error', 'LKD-ROUTE-009'),
    (o) => { for (const b of route(o).spec.rules[0].backendRefs) b.weight = 0; }),
  mutation('zero the weights', 'one backend left, weight 0', onRoute('error', 'LKD-ROUTE-009'), (o) => {
    const rule = route(o).spec.rules[0];
    rule.backendRefs = [{ ...rule.backendRefs[0], weight: 0 }];
  }),

  // Selectors.
  // Reported on the Service: its selector is what needs fixing.
  mutation('break a Service selector', 'backend orders-v1 selects version v9', expectOn('warning', 'LKD-ROUTE-023', 'Service', 'orders-v1'),
    (o) => { find(o, 'Service', 'orders-v1').spec.selector['app.kubernetes.io/version'] = 'v9'; }),
  mutation('break a Service selector', 'backend orders-v2 selector key typo', expectOn('warning', 'LKD-ROUTE-023', 'Service', 'orders-v2'), (o) => {
    const svc = find(o, 'Service', 'orders-v2');
    svc.spec.selector = { 'app.kubernetes.io/nmae': 'orders', 'app.kubernetes.io/version': 'v2' };
  }),
  mutation('break a Service selector', 'parent orders selects app "order"', expectOn('warning', 'LKD-ROUTE-023', 'Service', 'orders'),
    (o) => { find(o, 'Service', 'orders').spec.selector['app.kubernetes.io/name'] = 'order'; }),
  mutation('break a Server podSelector', 'app "order"', onServer('error', 'LKD-POL-006'),
    (o) => { server(o).spec.podSelector.matchLabels['app.kubernetes.io/name'] = 'order'; }),
  mutation('break a Server podSelector', 'matchExpressions NotIn orders', onServer('error', 'LKD-POL-006'), (o) => {
    server(o).spec.podSelector = { matchExpressions: [{ key: 'app.kubernetes.io/name', operator: 'NotIn', values: ['orders', 'client'] }] };
  }),

  // Policy targets.
  mutation('point a policy at a missing Server', 'targetRef orders-htp', onPolicy('error', 'LKD-POL-001'), (o) => { policy(o).spec.targetRef.name = 'orders-htp'; }),
  mutation('point a policy at a missing Server', 'targetRef group omitted', onPolicy('error', 'LKD-POL-001'), (o) => { delete policy(o).spec.targetRef.group; }),

  // Retries on non-idempotent requests.
  mutation('retries on a route that matches POST / any method', 'method POST', onRoute('warning', 'LKD-RETRY-001'), (o) => addRetry(o, { method: 'POST' })),
  mutation('retries on a route that matches POST / any method', 'method PATCH', onRoute('warning', 'LKD-RETRY-001'), (o) => addRetry(o, { method: 'PATCH' })),
  mutation('retries on a route that matches POST / any method', 'no method match (any method)', onRoute('warning', 'LKD-RETRY-001'), (o) => addRetry(o, undefined)),

  // A quoted port number.
  mutation('quote the Server port number', 'port: "8080"', onServer('error', 'LKD-POL-007'), (o) => { server(o).spec.port = '8080'; }),

  // Compound durations Linkerd drops.
  mutation('compound timeout', 'rules[0].timeouts.request: 1m30s', onRoute('error', 'LKD-ROUTE-014'),
    (o) => { route(o).spec.rules[0].timeouts = { request: '1m30s' }; }),
  mutation('compound timeout', 'timeout.linkerd.io/request: 1m30s', onRoute('error', 'LKD-RETRY-002'), (o) => {
    route(o).metadata.annotations = { 'timeout.linkerd.io/request': '1m30s' };
  }),

  // Filters Linkerd cannot convert.
  mutation('unsupported filter', 'RequestMirror on the rule', onRoute('error', 'LKD-ROUTE-011'), (o) => addFilter(o, MIRROR, false)),
  mutation('unsupported filter', 'URLRewrite on the rule', onRoute('error', 'LKD-ROUTE-011'), (o) => addFilter(o, REWRITE, false)),
  mutation('unsupported filter', 'RequestMirror on a backendRef', onRoute('error', 'LKD-ROUTE-011'), (o) => addFilter(o, MIRROR, true)),
  mutation('filter type newer than Linkerd reads', 'CORS on the rule (the route cannot be read)', onRoute('error', 'LKD-ROUTE-020'),
    (o) => addFilter(o, { type: 'CORS', cors: { allowOrigins: ['https://shop.example.com'] } }, false)),
  mutation('unsupported filter', 'URLRewrite on a policy.linkerd.io HTTPRoute (its CRD refuses it)', onRoute('error', 'LKD-ROUTE-011'), (o) => {
    route(o).apiVersion = 'policy.linkerd.io/v1beta3';
    addFilter(o, REWRITE, false);
  }),

  // Ports that the Services do not expose.
  mutation('parent port not on the Service', 'parentRefs[0].port 9090', onRoute('error', 'LKD-ROUTE-004'), (o) => { route(o).spec.parentRefs[0].port = 9090; }),
  mutation('parent port not on the Service', 'parentRefs[0].port 8081', onRoute('error', 'LKD-ROUTE-004'), (o) => { route(o).spec.parentRefs[0].port = 8081; }),
  mutation('parent port not on the Service', 'sectionName admin instead of the port', onRoute('warning', 'LKD-ROUTE-004'), (o) => {
    const parent = route(o).spec.parentRefs[0];
    delete parent.port;
    parent.sectionName = 'admin';
  }),
  mutation('backend port not on the Service', 'backendRefs[0].port 9090', onRoute('error', 'LKD-ROUTE-007'),
    (o) => { route(o).spec.rules[0].backendRefs[0].port = 9090; }),
  mutation('backend port not on the Service', 'backendRefs[1].port omitted', onRoute('error', 'LKD-ROUTE-006'),
    (o) => { delete route(o).spec.rules[0].backendRefs[1].port; }),

  // Beyond the brief's list: mistakes the same corpus should catch.
  mutation('app container takes a proxy port', 'orders-v1 containerPort 4143', expectOn('error', 'LKD-MESH-007', 'Deployment', 'orders-v1'),
    (o) => { container(o, 'orders-v1').ports.push({ containerPort: 4143, name: 'dup' }); }),
  mutation('object defined twice', 'second Server orders-http', onServer('error', 'LKD-MESH-009'),
    (o) => { o.push({ ...JSON.parse(JSON.stringify(server(o))), spec: { ...server(o).spec, port: 9090 } }); }),
  mutation('object defined twice', 'an identical copy of Server orders-http (nothing lost; kustomize refuses it)', onServer('warning', 'LKD-MESH-009'),
    (o) => { o.push(JSON.parse(JSON.stringify(server(o)))); }),
];

/** The mutated copy of `objects` for one mutation. */
export function mutate(objects: any[], m: Mutation): any[] {
  const copy = JSON.parse(JSON.stringify(objects));
  m.apply(copy);
  return copy;
}
