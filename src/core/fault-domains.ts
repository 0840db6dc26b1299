/** Names shared by the zone-spread constructs and the HA check (the engine may import only core). */

/** The zone label every cloud provider's nodes carry (well-known label). */
export const ZONE_LABEL = 'topology.kubernetes.io/zone';
/** The label the chart puts on each controller's pods. */
export const COMPONENT_LABEL = 'linkerd.io/control-plane-component';

/** The chart's controller Deployments that run `controllerReplicas` replicas, by their component label. */
export const CONTROLLER_DEPLOYMENTS: ReadonlyArray<{ name: string; component: string }> = [
  { name: 'linkerd-destination', component: 'destination' },
  { name: 'linkerd-identity', component: 'identity' },
  { name: 'linkerd-proxy-injector', component: 'proxy-injector' },
];
