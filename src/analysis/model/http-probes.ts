/**
 * The HTTP probes of a pod template, read once for every reader (the generated probe routes of the inbound
 * evaluation, LKD-POL-010's probe checks, explain): linkerd2 at version-2.20 `policy-controller/k8s/index/src/inbound/
 * workload.rs` `pod_http_probes` / `container_http_probe_paths` — the liveness, readiness and startup `httpGet` of
 * containers and init containers; a numeric port in 1–65535, or a name found (case-insensitively) among that
 * container's TCP ports; the path as `http::Uri::path` keeps it (no query, no fragment, `/` when unset).
 */
import { PodTemplate } from './mesh-index';

export interface HttpProbe {
  /** `livenessProbe`, `readinessProbe` or `startupProbe`. */
  readonly kind: string;
  readonly container: string;
  readonly port: number;
  /** The path the controller's probe route matches (Exact). */
  readonly path: string;
  /** The query the kubelet sends with it (not part of the route match). */
  readonly query: URLSearchParams;
  readonly headers: ReadonlyArray<{ readonly name: string; readonly value: string }>;
}

const PROBE_KINDS = ['livenessProbe', 'readinessProbe', 'startupProbe'] as const;

function isRecord(value: unknown): value is Record<string, any> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function listOf(value: unknown): any[] {
  return Array.isArray(value) ? value : [];
}

/** The path of a probe's URI as the controller keeps it (`http::Uri::path`: no query, no fragment). */
function uriParts(path: unknown): { path: string; query: string } {
  const text = typeof path === 'string' && path.length > 0 ? path : '/';
  const cut = text.search(/[?#]/);
  const bare = cut >= 0 ? text.slice(0, cut) : text;
  const query = text[cut] === '?' ? text.slice(cut + 1).split('#')[0] : '';
  return { path: bare.startsWith('/') ? bare : `/${bare}`, query };
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

/** Every HTTP probe of the pod template the controller turns into a probe route, in container and kind order. */
export function podHttpProbes(pod: PodTemplate): HttpProbe[] {
  const probes: HttpProbe[] = [];
  for (const container of [...listOf(pod.spec.containers), ...listOf(pod.spec.initContainers)]) {
    for (const kind of PROBE_KINDS) {
      const get = isRecord(container?.[kind]) ? container[kind].httpGet : undefined;
      if (!isRecord(get)) continue;
      const port = probePort(get.port, container);
      if (port === undefined) continue;
      const { path, query } = uriParts(get.path);
      const headers = listOf(get.httpHeaders).map((h: any) => ({ name: String(h?.name ?? ''), value: String(h?.value ?? '') }));
      probes.push({ kind, container: String(container?.name ?? ''), port, path, query: new URLSearchParams(query), headers });
    }
  }
  return probes;
}
