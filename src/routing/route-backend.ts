import { IConstruct } from 'constructs';
import { ServiceReference } from './service-reference';
import { MAX_WEIGHT, forwardsNothing, isValidWeight } from '../core/backend-weights';
import { fail } from '../core/errors';
import { validatePortNumber } from '../core/names';
import { isStruct, requireInstance } from '../core/runtime-checks';

// Part of the public TypeScript API since the first release; its home is core/backend-weights.ts.
export { MAX_WEIGHT };

/** Options for a Service backend. */
export interface BackendOptions {
  /** The Service port (not the targetPort). Required: Linkerd fails a Service backend without one. */
  readonly port: number;
  /**
   * Relative weight; a backend's share is its weight ÷ the sum of weights in the rule.
   * @default 1
   */
  readonly weight?: number;
}

/** Where a route rule sends traffic. */
export class RouteBackend {
  /** A Service port. */
  public static service(service: ServiceReference, options: BackendOptions): RouteBackend {
    // Checked where the backend is used (that construct's path is in the error); here only nothing may throw.
    const given = isStruct(options) ? options : {} as Partial<BackendOptions>;
    return new RouteBackend(service, given.port as number, given.weight);
  }

  private constructor(
    /** The Service. */
    public readonly target: ServiceReference,
    /** The Service port. */
    public readonly port: number,
    /** The weight, if set. */
    public readonly weight: number | undefined,
  ) {}

  /** Validates and renders as a backendRef. @internal */
  public _toKube(scope: IConstruct, where: string): Record<string, any> {
    requireInstance(scope, this.target, ServiceReference, `${where} service`, 'Pass RouteBackend.service(ServiceReference.fromService(svc), { port }).')
      ._validate(scope, `${where} service`);
    validatePortNumber(scope, this.port, `${where} port`);
    const known = this.target._ports();
    if (known && !known.includes(this.port)) {
      fail(scope, 'LKD-ROUTE-007',
        `${where} sends to port ${this.port} of Service ${this.target.name}, which exposes only ${known?.join(', ')}.`,
        'Use one of the Service\'s ports (the Service port, not the targetPort).');
    }
    if (this.weight !== undefined) {
      if (!isValidWeight(this.weight)) {
        fail(scope, 'LKD-ROUTE-009',
          `${where} weight ${JSON.stringify(this.weight)} is outside 0..${MAX_WEIGHT}.`,
          'Use an integer weight between 0 and 1000000.');
      }
    }
    // group is left out (it defaults to "" = core): Linkerd skips its port check for any other spelling.
    return { name: this.target.name, namespace: this.target.namespace, port: this.port, weight: this.weight };
  }
}

/** Weights must leave some traffic somewhere: all-zero makes every matching request fail. */
export function checkRuleWeights(scope: IConstruct, backends: RouteBackend[], where: string): void {
  if (backends.length > 16) {
    fail(scope, 'LKD-ROUTE-009',
      `${where} has ${backends.length} backends; Gateway API allows 16.`,
      'Split the rule.');
  }
  // Each weight is valid by now (RouteBackend._toKube checked it).
  if (forwardsNothing(backends.map((b) => b.weight))) {
    fail(scope, 'LKD-ROUTE-009',
      `every backend of ${where} has weight 0, so no request can be forwarded.`,
      'Give at least one backend a positive weight.');
  }
}
