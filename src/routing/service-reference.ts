import * as kplus from 'cdk8s-plus-28';

/** A Service a route attaches to or sends traffic to. */
export class ServiceReference {
  /** A Service defined in this app: its ports are known, so ports are checked at once. */
  public static fromService(service: kplus.Service): ServiceReference {
    return new ServiceReference(service.name, (service as any).metadata?.namespace, service);
  }

  /** A Service that exists in the cluster (ports unknown; the check engine can use an inventory). */
  public static fromName(name: string, namespace?: string): ServiceReference {
    return new ServiceReference(name, namespace, undefined);
  }

  private constructor(
    /** The Service name. */
    public readonly name: string,
    /** The Service namespace, when not the route's. */
    public readonly namespace: string | undefined,
    private readonly service: kplus.Service | undefined,
  ) {}

  /** The cdk8s-plus Service, when it is defined in this app (escape hatch). */
  public get serviceObject(): kplus.Service | undefined {
    return this.service;
  }

  /** Service ports, when known. @internal */
  public _ports(): number[] | undefined {
    return this.service?.ports.map((p) => p.port);
  }
}
