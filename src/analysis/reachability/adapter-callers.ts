/**
 * The callers reachability decides for: one per meshed identity (a workload's pod-template ServiceAccount), every
 * other identity of a namespace, and the caller classes — any other meshed identity, an unmeshed client in the
 * cluster, an external client, and the kubelet (unauthenticated, from the probe networks).
 */
import { Injection, PodTemplate } from '../model/mesh-index';
import { Caller } from '../policy';
import { CallerKind, CallerView } from './views';

export const OTHER_MESHED = 'other-meshed';
export const UNAUTHENTICATED = 'unauthenticated';
export const EXTERNAL = 'external';
export const KUBELET = 'kubelet';

/** The ServiceAccount of a namespace-wide caller class (`ns/*`), as `*.ns.serviceaccount...` patterns name it. */
export const NOWHERE = '*';
/**
 * The namespace and ServiceAccount of the `other-meshed` representative: a label no identity pattern names, so only
 * patterns that match every identity of the trust domain admit it. (`*` would not do: `*.*.serviceaccount...` names a
 * literal `*` label, core/src/identity_match.rs, and matches nobody.)
 */
const UNNAMED = '\u0000';
/** An address outside every private and carrier-grade range, for the `external` class. */
const OUTSIDE_IP = '203.0.113.7';

/** linkerd-viz's own Prometheus, assumed to scrape when its ServiceAccount is in the input. */
export const VIZ_PROMETHEUS = ['linkerd-viz', 'prometheus'];


export function identityCaller(namespace: string, serviceAccount: string, workloads: string[] = []): CallerView {
  const key = serviceAccount === NOWHERE ? `${namespace}/*` : `${namespace}/${serviceAccount}`;
  return { key, kind: serviceAccount === NOWHERE ? CallerKind.NAMESPACE : CallerKind.IDENTITY, namespace, serviceAccount, workloads };
}

export const CLASS_CALLERS: CallerView[] = [
  { key: OTHER_MESHED, kind: CallerKind.OTHER_MESHED, workloads: [] },
  { key: UNAUTHENTICATED, kind: CallerKind.UNAUTHENTICATED, workloads: [] },
  { key: EXTERNAL, kind: CallerKind.EXTERNAL, workloads: [] },
];

export const KUBELET_CALLER: CallerView = { key: KUBELET, kind: CallerKind.KUBELET, workloads: [] };

/** The caller as the policy evaluation takes it. */
export function toCaller(view: CallerView): Caller {
  switch (view.kind) {
    case CallerKind.IDENTITY: case CallerKind.NAMESPACE:
      return { meshed: true, namespace: view.namespace, serviceAccount: view.serviceAccount, label: `meshed ${view.key}` };
    case CallerKind.OTHER_MESHED:
      return { meshed: true, namespace: UNNAMED, serviceAccount: UNNAMED, label: 'any other meshed identity' };
    case CallerKind.EXTERNAL:
      return { meshed: false, ip: OUTSIDE_IP, inCluster: false, label: 'an unmeshed client outside the cluster networks' };
    case CallerKind.KUBELET:
      return { meshed: false, inCluster: true, label: 'the kubelet (probes, unauthenticated)' };
    default:
      return { meshed: false, inCluster: true, label: 'an unmeshed (plaintext) client in the cluster' };
  }
}

/** `sa.ns.serviceaccount.identity.<cp>.<td>` → [ns, sa]; `*.ns.serviceaccount...` → [ns, '*']. */
export function identityParts(pattern: string): [string, string] | undefined {
  const parts = pattern.split('.');
  if (parts.length < 4 || parts[2] !== 'serviceaccount' || parts[3] !== 'identity') return undefined;
  return [parts[1], parts[0] === '*' ? NOWHERE : parts[0]];
}
/** The caller key a workload's pods present: its identity when meshed, else the unauthenticated class. */
export function callerKeyOf(pod: PodTemplate): string {
  return pod.injection === Injection.ENABLED ? `${pod.namespace}/${pod.serviceAccountName}` : UNAUTHENTICATED;
}
