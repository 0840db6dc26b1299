/**
 * Exporting a Service to the other clusters of a fleet: the `mirror.linkerd.io/exported` label that the Links'
 * selectors match, and the name the mirror gets on the other side (`<service>-<cluster>`, mirrorServiceName in
 * multicluster/service-mirror/cluster_watcher.go).
 */
import { ApiObject } from 'cdk8s';
import * as kplus from 'cdk8s-plus-28';
import { MODES, MulticlusterMode } from './mode';
import { InputRule, MeshConfigError, check } from '../core/errors';
import { EXPORTED_GATEWAY, EXPORTED_LABEL, EXPORTED_REMOTE_DISCOVERY, mirroredServiceName } from '../core/multicluster';
import { isDnsLabel } from '../core/names';
import { requireAnyConstruct, requireConstructArgument } from '../core/runtime-checks';
import { ServiceReference } from '../routing/service-reference';

/** A Service exported to the linked clusters. */
export class ExportedService {
  /** Labels a cdk8s-plus Service exported; returns the export (for the mirrored names). */
  public static export(service: kplus.Service, mode: MulticlusterMode = MulticlusterMode.GATEWAY): ExportedService {
    requireConstructArgument(service, kplus.Service, 'ExportedService.export()', 'Pass a cdk8s-plus Service; use ExportedService.exportApiObject for an L1 Service.');
    service.metadata.addLabel(EXPORTED_LABEL, ExportedService.labelValue(service, mode));
    return new ExportedService(service.name, service.metadata.namespace, mode);
  }

  /** Labels an L1 `Service` ApiObject exported. */
  public static exportApiObject(service: ApiObject, mode: MulticlusterMode = MulticlusterMode.GATEWAY): ExportedService {
    requireAnyConstruct(service, 'ExportedService.exportApiObject()', 'Pass the Service ApiObject.');
    check(ApiObject.isApiObject(service) && service.kind === 'Service', service, InputRule.REQUIRED, 'exportApiObject needs a Service ApiObject.', 'Pass the Service.');
    service.metadata.addLabel(EXPORTED_LABEL, ExportedService.labelValue(service, mode));
    return new ExportedService(service.name, service.metadata.namespace, mode);
  }

  /**
   * The name clients in another cluster call: `<service>-<cluster>` (e.g. `orders-west`), in the same namespace.
   * Refused when it would not be a valid Service name.
   */
  public static mirroredName(serviceName: string, clusterName: string): string {
    const name = mirroredServiceName(serviceName, clusterName);
    if (!isDnsLabel(name)) {
      throw new MeshConfigError({ node: { path: 'ExportedService.mirroredName' } } as any, InputRule.NAME,
        `the mirrored name ${JSON.stringify(name)} is not a valid Service name (a DNS label of at most 63 characters).`,
        'Shorten the Service or the cluster name.');
    }
    return name;
  }

  private static labelValue(scope: any, mode: MulticlusterMode): string {
    check(MODES.includes(mode), scope, InputRule.RANGE, `mode ${JSON.stringify(mode)} is not a MulticlusterMode.`, 'Use MulticlusterMode.GATEWAY or FLAT_NETWORK.');
    return mode === MulticlusterMode.GATEWAY ? EXPORTED_GATEWAY : EXPORTED_REMOTE_DISCOVERY;
  }

  /** The exported Service's name. */
  public readonly serviceName: string;
  /**
   * Its namespace.
   * @default - the Chart's
   */
  public readonly namespace?: string;
  /** Gateway or flat network. */
  public readonly mode: MulticlusterMode;

  private constructor(serviceName: string, namespace: string | undefined, mode: MulticlusterMode) {
    this.serviceName = serviceName;
    this.namespace = namespace;
    this.mode = mode;
  }

  /** The mirror's name in the cluster that links to `clusterName` (the cluster this Service lives in). */
  public mirroredNameIn(clusterName: string): string {
    return ExportedService.mirroredName(this.serviceName, clusterName);
  }

  /** A reference to the mirror, for `addCall` on a client of the linking cluster. */
  public mirrorReference(clusterName: string): ServiceReference {
    return ServiceReference.fromName(this.mirroredNameIn(clusterName), this.namespace);
  }
}
