/**
 * LKD-MESH-003, opaque ports: where the policy controller (parse_portset, policy-controller/k8s/index/src/ports.rs)
 * and the injector and destination controller (pkg/util/portrange.go ParsePortRange) read one opaque-ports value
 * differently. The rule itself is ../config-annotations.ts.
 */
import { LABELS_GO } from '../../../../core/linkerd-annotations.generated';
import { opaquePortsReadings } from '../../../../core/port-lists';

export const OPAQUE_PORTS = LABELS_GO.ProxyOpaquePortsAnnotation;

export const quoted = (entries: string[]) => entries.map((e) => JSON.stringify(e)).join(', ');

/** Where an opaque-ports value sits decides what a name in it means and what the policy controller serves from it. */
interface OpaqueSite {
  /** What a name stands for there. */
  readonly names: string;
  /** What follows when the policy controller reads no port of it. */
  readonly effect: string;
}

export const POD_SITE: OpaqueSite = { names: 'container port names', effect: 'the pods\' inbound policy detects the protocol on these ports' };

export const SERVICE_SITE: OpaqueSite = { names: 'Service port names', effect: 'client proxies detect the protocol on these ports (and HTTPRoutes apply)' };

/**
 * opaque-ports is read by Go (the injector, the destination controller: per entry, names resolved, bad entries
 * skipped) and by Rust (the policy controller's parse_portset: numbers and ranges only, the whole list or nothing).
 * What is wrong where they differ or drop something, or undefined.
 */
export function opaquePortsProblem(value: string, site: OpaqueSite): string | undefined {
  const { controller, names, skippedByGo } = opaquePortsReadings(value);
  if (controller === undefined) {
    const why = [
      names.length > 0 ? `it names ${quoted(names)} (${site.names})` : '',
      skippedByGo.length > 0 ? `${quoted(skippedByGo)} ${skippedByGo.length === 1 ? 'is' : 'are'} no port or range` : '',
    ].filter(Boolean).join(', and ');
    return 'the policy controller (policy-controller/k8s/index/src/ports.rs parse_portset) reads port numbers and lo-hi ranges only, '
      + `and ${why || 'it reads no entry'}, so it discards the whole list: no port in it is opaque there, and ${site.effect}`
      + `${names.length > 0 ? '; list the port numbers instead' : ''}.`;
  }
  if (skippedByGo.length === 0) return undefined;
  const one = skippedByGo.length === 1;
  return `the policy controller reads ${quoted(skippedByGo)}, but the injector and the destination controller skip ${one ? 'it' : 'them'} `
    + '(pkg/util/portrange.go ParsePortRange allows no spaces around "-"), so the proxy\'s startup list and the destination '
    + `controller's answers leave ${one ? 'that range' : 'those ranges'} out; write ${quoted(skippedByGo.map((e) => e.replace(/\s+/g, '')))}.`;
}
