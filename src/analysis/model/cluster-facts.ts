/**
 * What the synthesized (or analysed) control plane says about the cluster, so the checks need not be told twice:
 * a LinkerdControlPlane in the same App, Helm values inside Argo CD / Flux objects, or the `linkerd-config` ConfigMap
 * of `linkerd install` output. Explicit settings (MeshChecks options, CLI flags, plugin properties) still win.
 *
 * The values are the chart's (charts/linkerd-control-plane/values.yaml at version-2.20): `identityTrustDomain`
 * (empty means `clusterDomain`), `proxy.defaultInboundPolicy`, `clusterNetworks`, `proxy.opaquePorts`,
 * `policyController.probeNetworks`, `egress.globalEgressNetworkNamespace`, `identity.serviceAccountTokenProjection`; the release
 * namespace is the control-plane namespace.
 */
import { AnalysisContextInput } from '../options';
import { controlPlaneInstalls } from './installs';
import { MeshIndex } from './mesh-index';

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
}

function csv(value: unknown): string[] | undefined {
  const t = text(value);
  return t ? t.split(',').map((s) => s.trim()).filter(Boolean) : undefined;
}

function strings(value: unknown): string[] | undefined {
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value as string[];
  return csv(value);
}

/** The facts of the first control-plane install whose values can be read; empty when there is none. */
export function clusterFactsOf(index: MeshIndex): AnalysisContextInput {
  const install = controlPlaneInstalls(index)[0];
  if (!install) return {};
  const v = install.values;
  const facts: Record<string, unknown> = {
    trustDomain: text(v.identityTrustDomain) ?? text(v.clusterDomain),
    defaultInboundPolicy: text(v.proxy?.defaultInboundPolicy),
    clusterNetworks: csv(v.clusterNetworks),
    defaultOpaquePorts: text(v.proxy?.opaquePorts),
    probeNetworks: strings(v.policyController?.probeNetworks),
    controlPlaneNamespace: text(install.namespace),
    globalEgressNamespace: text(v.egress?.globalEgressNetworkNamespace),
    serviceAccountTokenProjection: typeof v.identity?.serviceAccountTokenProjection === 'boolean' ? v.identity.serviceAccountTokenProjection : undefined,
  };
  for (const key of Object.keys(facts)) if (facts[key] === undefined) delete facts[key];
  return facts as AnalysisContextInput;
}
