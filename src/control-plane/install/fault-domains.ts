/**
 * Fault domains of the control plane. The chart's HA profile requires one replica per node (anti-affinity on
 * kubernetes.io/hostname) and only *prefers* distinct zones (a weight-100 anti-affinity term on
 * topology.kubernetes.io/zone, charts/partials/templates/_affinity.tpl); it renders no topologySpreadConstraints. A
 * zone guarantee therefore needs a post-render step, which Flux (`spec.postRenderers`) and cdk8s' own rendering can
 * do and an Argo CD Helm source cannot.
 */
import { COMPONENT_LABEL, CONTROLLER_DEPLOYMENTS, ZONE_LABEL } from '../../core/fault-domains';

export { COMPONENT_LABEL, CONTROLLER_DEPLOYMENTS, ZONE_LABEL };

/** How the control-plane replicas are spread over zones (`topology.kubernetes.io/zone`). */
export enum ZoneSpread {
  /** No zone spreading beyond what the chart renders. */
  NONE = 'none',
  /** The chart's HA anti-affinity: distinct nodes required, distinct zones preferred (the scheduler may still stack a zone). */
  PREFERRED = 'preferred',
  /**
   * Distinct nodes required and replicas spread evenly over zones (topologySpreadConstraints, maxSkew 1,
   * DoNotSchedule) added after rendering; needs a delivery form that can post-render (Helm in cdk8s, Flux).
   */
  REQUIRED = 'required',
}

/** The topology spread constraint added to one controller's pod template. */
export function zoneSpreadConstraint(component: string): Record<string, any> {
  return {
    maxSkew: 1,
    topologyKey: ZONE_LABEL,
    whenUnsatisfiable: 'DoNotSchedule',
    labelSelector: { matchLabels: { [COMPONENT_LABEL]: component } },
  };
}

/** A strategic-merge patch (YAML text, as Flux's kustomize post-renderer takes it) for one controller Deployment. */
export function zoneSpreadPatch(name: string, component: string): string {
  const c = zoneSpreadConstraint(component);
  return [
    'apiVersion: apps/v1',
    'kind: Deployment',
    `metadata:\n  name: ${name}`,
    'spec:',
    '  template:',
    '    spec:',
    '      topologySpreadConstraints:',
    `      - maxSkew: ${c.maxSkew}`,
    `        topologyKey: ${c.topologyKey}`,
    `        whenUnsatisfiable: ${c.whenUnsatisfiable}`,
    '        labelSelector:',
    '          matchLabels:',
    `            ${COMPONENT_LABEL}: ${component}`,
    '',
  ].join('\n');
}

/** Flux `spec.postRenderers` that add the zone spread to every controller Deployment. */
export function fluxZoneSpreadPostRenderers(): Array<Record<string, any>> {
  return [{
    kustomize: {
      patches: CONTROLLER_DEPLOYMENTS.map(({ name, component }) => ({
        target: { kind: 'Deployment', name },
        patch: zoneSpreadPatch(name, component),
      })),
    },
  }];
}

/** The zone spread in effect: the explicit choice, else required with HA where the form can post-render. */
export function effectiveZoneSpread(explicit: ZoneSpread | undefined, highAvailability: boolean, canPostRender: boolean): ZoneSpread {
  if (explicit !== undefined) return explicit;
  if (!highAvailability) return ZoneSpread.NONE;
  return canPostRender ? ZoneSpread.REQUIRED : ZoneSpread.PREFERRED;
}
