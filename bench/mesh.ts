/**
 * The benchmark's mesh: N services of the mesh-lab shape, 10 objects each — 2 Deployments (v1, v2), 3 Services
 * (stable, v1, v2), 1 ServiceAccount, 1 Server, 1 MeshTLSAuthentication, 1 AuthorizationPolicy, 1 HTTPRoute 90/10.
 * Built through the public constructs (the compiled library, as users get it).
 */
import { Chart } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
// The compiled package, as a user would load it.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const lib = require('../lib') as typeof import('../lib');

const PORT = 8080;

function addService(chart: Chart, i: number): void {
  const app = `svc-${i}`;
  const identity = new kplus.ServiceAccount(chart, `${app}-sa`, { metadata: { name: app }, automountToken: false });
  const container = (version: string): kplus.ContainerProps => ({
    name: 'app',
    image: 'hashicorp/http-echo:1.0.0',
    args: [`-listen=:${PORT}`, `-text=${version}`],
    ports: [{ name: 'http', number: PORT }],
    securityContext: { user: 65532, group: 65532 },
  });
  const services: Record<string, kplus.Service> = {};
  for (const version of ['v1', 'v2']) {
    const workload = new lib.MeshedDeployment(chart, `${app}-${version}`, { name: `${app}-${version}`, app, version, serviceAccount: identity, containers: [container(version)] });
    services[version] = service(chart, `${app}-${version}`, workload.selectorLabels);
  }
  const stable = service(chart, app, { 'app.kubernetes.io/name': app });
  const server = new lib.Server(chart, `${app}-server`, { name: `${app}-http`, selector: lib.PodSelection.app(app), port: lib.ServerPort.number(PORT), proxyProtocol: lib.ProxyProtocol.HTTP1 });
  const callers = { policyName: `${app}-callers`, authenticationName: `${app}-identities`, serviceAccounts: [identity] };
  lib.ServerAccess.allow(server, callers);
  new lib.TrafficSplit(chart, `${app}-split`, {
    name: `${app}-split`,
    service: lib.ServiceReference.fromService(stable),
    port: PORT,
    backends: [
      { service: lib.ServiceReference.fromService(services.v1), percent: 90 },
      { service: lib.ServiceReference.fromService(services.v2), percent: 10 },
    ],
  });
}

function service(scope: Construct, name: string, selector: Record<string, string>): kplus.Service {
  const svc = new kplus.Service(scope, `${name}-svc`, { metadata: { name }, ports: [{ name: 'http', port: PORT, targetPort: PORT }] });
  for (const [k, v] of Object.entries(selector)) svc.selectLabel(k, v);
  return svc;
}

/**
 * Adds N services to `scope`: one chart (and namespace) per `perChart` services, all in one chart by default.
 * Note that cdk8s itself re-resolves and re-validates the whole App for every chart it writes, so its own cost grows
 * with charts × objects; `--services-per-chart` shows that effect separately.
 */
export function buildMesh(scope: Construct, services: number, perChart = services): void {
  for (let start = 0; start < services; start += perChart) {
    const namespace = `bench-${start / perChart}`;
    const chart = new Chart(scope, namespace, { namespace });
    new lib.MeshedNamespace(chart, 'ns', { name: namespace });
    for (let i = start; i < Math.min(services, start + perChart); i++) addService(chart, i);
  }
}
