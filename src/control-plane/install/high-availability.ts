/**
 * The chart's HA profile (`values-ha.yaml` of linkerd-control-plane 2026.6.3), restated in TypeScript so the install
 * needs no chart files at synth. A test compares it key by key with the chart's file, so drift is caught on upgrade.
 */

/** Requests and limits the HA profile gives each controller (the chart shares one YAML anchor between them). */
function controllerResources(memoryRequest: string): Record<string, any> {
  return {
    cpu: { limit: '', request: '100m' },
    memory: { limit: '250Mi', request: memoryRequest },
  };
}

/** The chart's high-availability values. */
export class HighAvailabilityPreset {
  /** A fresh copy of the HA values: 3 controller replicas, PDBs, pod anti-affinity, resources, webhooks that fail closed. */
  public static values(): { [key: string]: any } {
    return {
      highAvailability: true,
      controllerReplicas: 3,
      enablePodAntiAffinity: true,
      enablePodDisruptionBudget: true,
      controller: { podDisruptionBudget: { maxUnavailable: 1 } },
      deploymentStrategy: { rollingUpdate: { maxUnavailable: 1, maxSurge: '25%' } },
      webhookFailurePolicy: 'Fail',
      proxy: { resources: { cpu: { request: '100m' }, memory: { limit: '250Mi', request: '20Mi' } } },
      controllerResources: controllerResources('50Mi'),
      destinationResources: controllerResources('50Mi'),
      heartbeatResources: controllerResources('50Mi'),
      proxyInjectorResources: controllerResources('50Mi'),
      spValidatorResources: controllerResources('50Mi'),
      identityResources: controllerResources('10Mi'),
    };
  }

  private constructor() {}
}
