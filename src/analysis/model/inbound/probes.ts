/**
 * The HTTP probes of a pod, as the policy controller reads them: linkerd2
 * policy-controller/k8s/index/src/inbound/workload.rs `pod_http_probes` (the liveness, readiness and startup `httpGet`
 * of containers and init containers; a named probe port resolves among that container's TCP ports, compared without
 * case; the path as `http::Uri::path` keeps it, without query or fragment). The one probe reader: the generated probe
 * routes (inbound-routes.ts, the policy evaluation) and the probe rules (LKD-POL-010) read the same probes.
 */
import { compareStrings } from '../../../util/compare';
import { isRecord, listOf } from '../../../util/json';
import { perKeyOfIndex } from '../memo';
import { MeshIndex, PodTemplate } from '../mesh-index';

const PROBE_KINDS = ['livenessProbe', 'readinessProbe', 'startupProbe'];

/** One HTTP probe of a pod template, with what a rule needs to match it against routes and to name it in a message. */
export interface HttpProbe {
  /** `livenessProbe`, `readinessProbe` or `startupProbe`. */
  readonly kind: string;
  readonly container: string;
  readonly port: number;
  /** The path as the controller keeps it: no query, no fragment, always starting with `/`. */
  readonly path: string;
  /** The query the kubelet sends (the part of `httpGet.path` after `?`, before any `#`). */
  readonly query: URLSearchParams;
  readonly headers: Array<{ name: string; value: string }>;
}

/** Where a probe's path ends: at the query or the fragment. */
function pathEnd(text: string): number {
  const cut = text.search(/[?#]/);
  return cut >= 0 ? cut : text.length;
}

/** The path of a probe's URI as the controller keeps it (`http::Uri::path`: no query, no fragment). */
function uriPath(text: string): string {
  const bare = text.slice(0, pathEnd(text));
  return bare.startsWith('/') ? bare : `/${bare}`;
}

/** The query of a probe's URI, as the kubelet sends it. */
function uriQuery(text: string): URLSearchParams {
  const question = text.indexOf('?');
  if (question < 0) return new URLSearchParams('');
  const hash = text.indexOf('#', question);
  return new URLSearchParams(text.slice(question + 1, hash < 0 ? text.length : hash));
}

function probePort(port: unknown, container: any): number | undefined {
  if (Number.isInteger(port)) return (port as number) >= 1 && (port as number) <= 65535 ? port as number : undefined;
  if (typeof port !== 'string') return undefined;
  const wanted = port.toLowerCase();
  for (const p of listOf(container?.ports)) {
    const tcp = p?.protocol === undefined || String(p.protocol).toUpperCase() === 'TCP';
    if (tcp && typeof p?.name === 'string' && p.name.toLowerCase() === wanted && Number.isInteger(p.containerPort)) return p.containerPort;
  }
  return undefined;
}

function readProbes(pod: PodTemplate): HttpProbe[] {
  const probes: HttpProbe[] = [];
  for (const container of [...listOf(pod.spec.containers), ...listOf(pod.spec.initContainers)]) {
    for (const kind of PROBE_KINDS) {
      const probe = isRecord(container) ? container[kind] : undefined;
      const get = isRecord(probe) ? probe.httpGet : undefined;
      if (!isRecord(get)) continue;
      const port = probePort(get.port, container);
      if (port === undefined) continue;
      const text = typeof get.path === 'string' && get.path.length > 0 ? get.path : '/';
      const headers = listOf(get.httpHeaders).map((h: any) => ({ name: String(h?.name ?? ''), value: String(h?.value ?? '') }));
      probes.push({ kind, container: String(container?.name ?? ''), port, path: uriPath(text), query: uriQuery(text), headers });
    }
  }
  return probes;
}

/** A pod template belongs to one index, so its probes are read once and dropped with it. */
const probesByPod = new WeakMap<PodTemplate, readonly HttpProbe[]>();

/** The HTTP probes of a pod template, containers then init containers, each in liveness, readiness, startup order. */
export function httpProbes(pod: PodTemplate): readonly HttpProbe[] {
  let probes = probesByPod.get(pod);
  if (!probes) probesByPod.set(pod, probes = readProbes(pod));
  return probes;
}

/** Port → sorted probe paths of one pod template (`pod_http_probes`). */
export const probePaths: (pod: PodTemplate, index: MeshIndex) => ReadonlyMap<number, readonly string[]> = perKeyOfIndex((pod) => {
  const byPort = new Map<number, string[]>();
  for (const probe of httpProbes(pod)) {
    const list = byPort.get(probe.port) ?? [];
    if (!list.includes(probe.path)) list.push(probe.path);
    byPort.set(probe.port, list);
  }
  // Byte order, as the controller's BTreeSet keeps them.
  for (const list of byPort.values()) list.sort(compareStrings);
  return byPort;
});
