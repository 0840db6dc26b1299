/**
 * What the fleet checks know about each cluster, read from that cluster's own manifests: its trust anchors and issuer,
 * trust domain, Links, exported Services, and the Services the service mirror will create from its Links.
 * Mirrors what multicluster/service-mirror/cluster_watcher.go (isExported, isRemoteDiscovery, mirrorServiceName) does.
 */
import { ParsedCertificate } from '../../core/certificates';
import {
  EXPORTED_GATEWAY, EXPORTED_LABEL, EXPORTED_REMOTE_DISCOVERY, LINK_GROUP, MIRRORED_SERVICE_LABEL, MULTICLUSTER_NAMESPACE,
  REMOTE_CLUSTER_LABEL, gatewayIdentity, mirroredServiceName,
} from '../../core/multicluster';
import { isRecord } from '../../util/json';
import { clusterFactsOf } from '../model/cluster-facts';
import { KubeObject, Manifest, MetadataMap, labelsOf } from '../model/manifest';
import { IndexedObject, MeshIndex } from '../model/mesh-index';
import { LabelSelector, selectorMatches } from '../model/selectors';
import { AnalysisContextInput } from '../options';
import { certificatesOf, helmValuesOf, issuerOf, trustMaterials } from '../rules/cert/material';

/** One cluster of a fleet as the engine receives it. */
export interface FleetClusterInput {
  /** The cluster's name: what Links call it (`targetClusterName`) and what mirrored Service names end in. */
  readonly name: string;
  readonly manifests: Manifest[];
  /** What the checks cannot read from the manifests (as for a single-cluster analysis). */
  readonly options?: AnalysisContextInput;
}

/** How an exported Service reaches callers of another cluster. */
export enum ExportMode {
  /** Through the target cluster's multicluster gateway (`mirror.linkerd.io/exported: "true"`). */
  GATEWAY = 'gateway',
  /** Pod to pod on a flat network (`mirror.linkerd.io/exported: remote-discovery`). */
  REMOTE_DISCOVERY = 'remote-discovery',
}

export interface LinkFacts {
  readonly subject: IndexedObject;
  readonly targetCluster: string;
  /** `spec.selector`: Services mirrored through the gateway. Empty or missing selects nothing (isExported). */
  readonly selector?: LabelSelector;
  /** `spec.remoteDiscoverySelector`: Services mirrored for pod-to-pod traffic. */
  readonly remoteDiscoverySelector?: LabelSelector;
  /** `spec.federatedServiceSelector`: members of the federated Service `<service>-federated` (pod to pod). */
  readonly federatedServiceSelector?: LabelSelector;
  /** `spec.gatewayIdentity`, the identity the target's gateway presents. */
  readonly gatewayIdentity?: string;
}

export interface ExportedServiceFacts {
  readonly service: IndexedObject;
  /** The label's value, as written. */
  readonly value: string;
}

/** A Service the service mirror will create in a cluster for a Service exported by a linked one. */
export interface MirroredService {
  readonly name: string;
  readonly namespace: string;
  readonly link: LinkFacts;
  readonly mode: ExportMode;
  /** The exported Service in the target cluster. */
  readonly exported: IndexedObject;
}

export interface ClusterFacts {
  readonly name: string;
  readonly input: FleetClusterInput;
  readonly index: MeshIndex;
  readonly trustDomain: string;
  readonly controlPlaneNamespace: string;
  /** The anchor bundle and the object that carries it; undefined when the manifests carry no PEM anchors. */
  readonly anchors?: { readonly subject: IndexedObject; readonly certificates: ParsedCertificate[] };
  readonly issuers: Array<{ readonly subject: IndexedObject; readonly certificate: ParsedCertificate }>;
  readonly links: LinkFacts[];
  readonly exported: ExportedServiceFacts[];
}

function selectorOf(value: unknown): LabelSelector | undefined {
  return isRecord(value) ? value as LabelSelector : undefined;
}

/** A Link selector selects nothing when it is missing or empty, unlike a Server's. */
export function linkSelectorMatches(selector: LabelSelector | undefined, labels: MetadataMap): boolean {
  if (!selector) return false;
  const count = Object.keys(isRecord(selector.matchLabels) ? selector.matchLabels : {}).length
    + (Array.isArray(selector.matchExpressions) ? selector.matchExpressions.length : 0);
  return count > 0 && selectorMatches(selector, labels);
}

function linksOf(index: MeshIndex): LinkFacts[] {
  return index.own(LINK_GROUP, 'Link').map((subject) => {
    const spec = isRecord(subject.object.spec) ? subject.object.spec : {};
    return {
      subject,
      targetCluster: typeof spec.targetClusterName === 'string' && spec.targetClusterName !== '' ? spec.targetClusterName : subject.id.name,
      selector: selectorOf(spec.selector),
      remoteDiscoverySelector: selectorOf(spec.remoteDiscoverySelector),
      federatedServiceSelector: selectorOf(spec.federatedServiceSelector),
      gatewayIdentity: typeof spec.gatewayIdentity === 'string' && spec.gatewayIdentity !== '' ? spec.gatewayIdentity : undefined,
    };
  });
}

function exportedOf(index: MeshIndex): ExportedServiceFacts[] {
  return index.own('', 'Service').flatMap((service) => {
    const value = labelsOf(service.object)[EXPORTED_LABEL];
    return typeof value === 'string' ? [{ service, value }] : [];
  });
}

/** The control-plane chart values' `identityTrustDomain`, when the manifests deliver the chart. */
function trustDomainInValues(index: MeshIndex): string | undefined {
  for (const entry of index.objects) {
    for (const { values } of helmValuesOf(entry)) {
      if (typeof values.identityTrustDomain === 'string' && values.identityTrustDomain !== '') return values.identityTrustDomain;
    }
  }
  return undefined;
}

function anchorsOf(index: MeshIndex): ClusterFacts['anchors'] {
  for (const material of trustMaterials(index)) {
    if (!material.anchors || material.anchors.borrowed) continue;
    const certificates = certificatesOf(material.anchors);
    if (certificates.length > 0) return { subject: material.subject, certificates };
  }
  return undefined;
}

function issuersOf(index: MeshIndex): ClusterFacts['issuers'] {
  const found: ClusterFacts['issuers'] = [];
  for (const material of trustMaterials(index)) {
    const certificate = material.issuer && !material.issuer.borrowed ? issuerOf(material.issuer) : undefined;
    if (certificate && !found.some((f) => f.certificate.x509.fingerprint256 === certificate.x509.fingerprint256)) {
      found.push({ subject: material.subject, certificate });
    }
  }
  return found;
}

/**
 * The facts of one cluster. Its trust domain: the cluster's own option, else the control-plane values in its
 * manifests, else the fleet-wide option (`--trust-domain`), else `cluster.local`.
 */
export function clusterFacts(input: FleetClusterInput, fleetOptions: AnalysisContextInput = {}): ClusterFacts {
  const declaredNamespace = input.options?.controlPlaneNamespace ?? fleetOptions.controlPlaneNamespace;
  const first = new MeshIndex(input.manifests, input.options?.inventory ?? fleetOptions.inventory ?? [], declaredNamespace ?? 'linkerd');
  // What the cluster's own install says (chart values in Argo CD / Flux, or its linkerd-config), as for one cluster.
  const installed = clusterFactsOf(first);
  const controlPlaneNamespace = declaredNamespace ?? installed.controlPlaneNamespace ?? 'linkerd';
  const index = controlPlaneNamespace === (declaredNamespace ?? 'linkerd') ? first
    : new MeshIndex(input.manifests, input.options?.inventory ?? fleetOptions.inventory ?? [], controlPlaneNamespace);
  return {
    name: input.name,
    input,
    index,
    trustDomain: input.options?.trustDomain ?? installed.trustDomain ?? trustDomainInValues(index) ?? fleetOptions.trustDomain ?? 'cluster.local',
    controlPlaneNamespace,
    anchors: anchorsOf(index),
    issuers: issuersOf(index),
    links: linksOf(index),
    exported: exportedOf(index),
  };
}

/** How a Link mirrors a Service, or undefined when its selectors leave the Service out. */
export function exportModeFor(link: LinkFacts, service: IndexedObject): ExportMode | undefined {
  const labels = labelsOf(service.object);
  // The service mirror mirrors a Service either selector matches, and one the remote-discovery selector matches gets no
  // gateway endpoints (multicluster/service-mirror/cluster_watcher.go: isRemoteDiscovery before createGatewayEndpoints).
  if (linkSelectorMatches(link.remoteDiscoverySelector, labels)) return ExportMode.REMOTE_DISCOVERY;
  if (linkSelectorMatches(link.selector, labels)) return ExportMode.GATEWAY;
  return undefined;
}

/** The Services the service mirror will create in `cluster` from its Links to clusters of the fleet. */
export function mirroredServices(cluster: ClusterFacts, fleet: ReadonlyMap<string, ClusterFacts>): MirroredService[] {
  const mirrors: MirroredService[] = [];
  for (const link of cluster.links) {
    const target = fleet.get(link.targetCluster);
    if (!target || target === cluster) continue;
    for (const service of target.index.own('', 'Service')) {
      if (service.id.namespace === undefined) continue;
      const mode = exportModeFor(link, service);
      const namespace = service.id.namespace;
      if (mode) mirrors.push({ name: mirroredServiceName(service.id.name, target.name), namespace, link, mode, exported: service });
      // A federated Service member joins `<service>-federated`, whose endpoints are the members' pods
      // (cluster_watcher.go isFederatedServiceMember, federatedServiceName).
      if (linkSelectorMatches(link.federatedServiceSelector, labelsOf(service.object))) {
        mirrors.push({ name: `${service.id.name}-federated`, namespace, link, mode: ExportMode.REMOTE_DISCOVERY, exported: service });
      }
    }
  }
  return mirrors;
}

/** The mirrored Service as an inventory object, so the cluster's own rules see the name clients call. */
export function mirrorManifest(mirror: MirroredService): KubeObject {
  const ports = Array.isArray(mirror.exported.object.spec?.ports) ? mirror.exported.object.spec.ports : [];
  return {
    apiVersion: 'v1',
    kind: 'Service',
    metadata: {
      name: mirror.name,
      namespace: mirror.namespace,
      labels: { [MIRRORED_SERVICE_LABEL]: 'true', [REMOTE_CLUSTER_LABEL]: mirror.link.targetCluster },
    },
    spec: { ports: ports.filter(isRecord).map((p: Record<string, any>) => ({ name: p.name, port: p.port, protocol: p.protocol })) },
  };
}

/** The identity a gateway-mode caller arrives with at the exported workload: the target's gateway. */
export function gatewayIdentityOf(link: LinkFacts, target: ClusterFacts): string {
  return link.gatewayIdentity ?? gatewayIdentity(target.trustDomain, target.controlPlaneNamespace, MULTICLUSTER_NAMESPACE);
}

/** Which label values are valid, for messages. */
export const EXPORT_VALUES = [EXPORTED_GATEWAY, EXPORTED_REMOTE_DISCOVERY];
