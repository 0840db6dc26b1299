import * as kplus from 'cdk8s-plus-28';
import { IConstruct } from 'constructs';
import { claimExisting } from '../checks/claims';
import { InputRule, fail } from '../core/errors';
import { validateLabelName } from '../core/names';
import { describeValue } from '../core/runtime-checks';

/** A Service a route attaches to or sends traffic to. */
export class ServiceReference {
  /** A Service defined in this app: its ports are known, so ports are checked at once. */
  public static fromService(service: kplus.Service): ServiceReference {
    // Checked where the reference is used (that construct's path is in the error); here only nothing may throw.
    if (!(service instanceof kplus.Service)) {
      return new ServiceReference(undefined as unknown as string, undefined, undefined,
        `ServiceReference.fromService() was given ${describeValue(service)}, not a cdk8s-plus Service`);
    }
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
    private readonly problem?: string,
  ) {}

  /** Refuses a reference built from input that is not a Service name (a jsii user's None, a number, …). @internal */
  public _validate(scope: IConstruct, where: string): this {
    if (this.problem !== undefined) {
      fail(scope, InputRule.REQUIRED,
        `${where}: ${this.problem}.`,
        'Pass ServiceReference.fromService(svc) with a kplus.Service.');
    }
    validateLabelName(scope, this.name, `${where} Service name`);
    if (this.namespace !== undefined) validateLabelName(scope, this.namespace, `${where} Service namespace`);
    return this;
  }

  /**
   * Records, for the checks, that `scope` refers to this Service as one of the cluster (without a namespace: in the
   * namespace of what `scope` writes). A Service of this app is no claim. @internal
   */
  public _claim(scope: IConstruct): void {
    if (this.service) return;
    claimExisting(scope, { group: '', kind: 'Service', namespace: this.namespace, name: this.name, factory: 'ServiceReference.fromName' });
  }

  /** The cdk8s-plus Service, when it is defined in this app (escape hatch). */
  public get serviceObject(): kplus.Service | undefined {
    return this.service;
  }

  /** Service ports, when known. @internal */
  public _ports(): number[] | undefined {
    return this.service?.ports.map((p) => p.port);
  }
}
