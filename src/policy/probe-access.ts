import { Construct } from 'constructs';
import { Network, NetworkAuthentication } from './authentication';
import { Authentication, AuthorizationPolicy, AuthorizationTarget } from './authorization-policy';
import { Server } from './server';
import { ServerHttpRoute } from './server-route';
import { InputRule, check } from '../core/errors';
import { HttpMethod, PathMatch } from '../routing/matches';
import { UnmatchedRequests } from '../routing/unmatched';
import { compareStrings } from '../util/compare';
import { MeshedDeployment } from '../workloads/meshed-deployment';

/** Props for ProbeAccess. */
export interface ProbeAccessProps {
  /** The Server whose port the workload's kubelet probes use. */
  readonly server: Server;
  /** The workload whose HTTP probes (startup, readiness, liveness) on the Server's port are allowed. */
  readonly workload: MeshedDeployment;
  /**
   * Name of the probe route and of its AuthorizationPolicy.
   * @default `<server name>-probes`
   */
  readonly name?: string;
  /**
   * Networks the kubelet probes from (its node addresses).
   * @default - every network (0.0.0.0/0 and ::/0), as Linkerd's default `probeNetworks`
   */
  readonly networks?: Network[];
  /**
   * What happens to the Server's requests that are not probes. A route on a Server makes Linkerd refuse what no route
   * matches, so the default writes a match-all route beside the probe route; the Server's own policies still apply to it.
   * @default UnmatchedRequests.ROUTE_TO_SERVICE
   */
  readonly unmatched?: UnmatchedRequests;
}

const PROBE_KINDS = ['startupProbe', 'readinessProbe', 'livenessProbe'];

/** The parts of a rendered container this reads. */
type Container = { ports?: Array<{ name?: string; containerPort: number }> } & Record<string, any>;

/** A probe's port as a number, resolving a container port name. */
function probePort(container: Container, port: unknown): number | string | undefined {
  const value = (port as any)?.value ?? port;
  if (typeof value !== 'string') return value;
  return container.ports?.find((p) => p.name === value)?.containerPort ?? value;
}

/** The Server's port as a number when a container of the workload names it. */
function serverPortNumber(containers: Container[], port: number | string): number | string {
  if (typeof port === 'number') return port;
  for (const c of containers) {
    const found = c.ports?.find((p) => p.name === port);
    if (found) return found.containerPort;
  }
  return port;
}

/** The distinct GET paths of the workload's HTTP probes on `port`, query strings dropped (Linkerd matches the path). */
function probePaths(containers: Container[], port: number | string): string[] {
  const paths = new Set<string>();
  for (const c of containers) {
    for (const kind of PROBE_KINDS) {
      const get = c[kind]?.httpGet;
      if (!get || probePort(c, get.port) !== port) continue;
      paths.add((get.path || '/').split('?')[0]);
    }
  }
  return [...paths].sort(compareStrings);
}

/**
 * Keeps the kubelet's probes working once routes attach to a Server (LKD-POL-010). Linkerd authorizes probe paths by
 * itself only while a Server has no routes (policy-controller/k8s/index/src/inbound/index.rs,
 * `default_inbound_http_routes`); this writes what it would: a route on the Server matching `GET <path>` exactly for
 * each HTTP probe of the workload on the Server's port, and an AuthorizationPolicy on that route for unauthenticated
 * callers from the probe networks. The probes are read from the workload's containers when this is created.
 */
export class ProbeAccess extends Construct {
  /** The route matching the probe requests. */
  public readonly route: ServerHttpRoute;
  /** The networks the probes may come from. */
  public readonly network: NetworkAuthentication;
  /** The policy admitting the probes on the route. */
  public readonly policy: AuthorizationPolicy;
  /** The probe paths matched. */
  public readonly paths: string[];

  constructor(scope: Construct, id: string, props: ProbeAccessProps) {
    super(scope, id);
    check(props.server instanceof Server && props.workload instanceof MeshedDeployment, this, InputRule.REQUIRED,
      'ProbeAccess needs a Server and a MeshedDeployment.', 'Pass server: the Server and workload: the MeshedDeployment it selects.');
    const containers: Container[] = props.workload.deployment.containers.map((c) => c._toKube() as Container);
    const port = serverPortNumber(containers, props.server.port._value());
    // A name no container declares selects no port of these pods (Pod::select_ports): that, not the probes, is the problem.
    check(typeof port === 'number', this, 'LKD-POL-007',
      `Server ${props.server.name} names port ${JSON.stringify(port)}, which no container of workload ${props.workload.name} declares, `
        + 'so the Server selects no port of its pods and there is no probe to allow.',
      `Name the container port ${JSON.stringify(port)} (ports: [{ name: ${JSON.stringify(port)}, number }]), or give the Server the port number.`);
    this.paths = probePaths(containers, port);
    check(this.paths.length > 0, this, InputRule.REQUIRED,
      `workload ${props.workload.name} has no HTTP probe on port ${port} of Server ${props.server.name}, so there is nothing to allow.`,
      'Give the containers an HTTP probe on the Server\'s port (kplus.Probe.fromHttpGet), or drop the ProbeAccess.');
    const name = props.name ?? `${props.server.name}-probes`;
    this.route = new ServerHttpRoute(this, 'Route', {
      name,
      server: props.server,
      unmatched: props.unmatched ?? UnmatchedRequests.ROUTE_TO_SERVICE,
      rules: [{ matches: this.paths.map((path) => ({ path: PathMatch.exact(path), method: HttpMethod.GET })) }],
    });
    this.network = new NetworkAuthentication(this, 'Networks', {
      name: `${name}-networks`,
      namespace: this.route.namespace,
      networks: props.networks ?? [Network.cidr('0.0.0.0/0'), Network.cidr('::/0')],
    });
    this.policy = new AuthorizationPolicy(this, 'Policy', {
      name,
      namespace: this.route.namespace,
      target: AuthorizationTarget.httpRoute(this.route),
      requiredAuthentications: [Authentication.network(this.network)],
    });
  }
}
