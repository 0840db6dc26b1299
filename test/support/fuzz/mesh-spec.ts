/**
 * A random mesh as plain data. The generators (arbitraries.ts) produce it and build.ts turns it into constructs, so a
 * failing case can be printed, shrunk and replayed. Cross references are indices resolved modulo the list they point
 * into (an index into an empty list means "none"), which keeps every generated spec buildable without `chain`.
 */

/** A cdk8s Duration factory and amount, e.g. { unit: 'seconds', amount: 90 }. */
export interface DurationSpec {
  readonly unit: 'millis' | 'seconds' | 'minutes' | 'hours' | 'days';
  readonly amount: number;
}

/** A value that should be a number but that JS callers sometimes pass as a string (read from env or config). */
export type Loose<T> = T | string;

export interface ContainerPortSpec {
  readonly number: number;
  readonly name?: string;
}

export interface VersionSpec {
  readonly version: string;
  readonly ports: ContainerPortSpec[];
  readonly meshed: boolean;
  /** Whether this version gets its own Service `<app>-<version>`. */
  readonly service: boolean;
}

export interface AppSpec {
  readonly name: string;
  readonly versions: VersionSpec[];
  /** Added to each container port to get the Service port (0 = same number). */
  readonly servicePortOffset: number;
}

/** A Service an object refers to: one of the generated ones, or a name (existing or not, valid or not). */
export type ServiceRefSpec =
  | { readonly kind: 'app'; readonly app: number }
  | { readonly kind: 'version'; readonly app: number; readonly version: number }
  | { readonly kind: 'name'; readonly name: string; readonly namespace?: string };

/** A Service port: the n-th port of the target Service, or a literal. */
export type PortChoice = { readonly kind: 'nth'; readonly index: number } | { readonly kind: 'literal'; readonly value: Loose<number> };

export interface HttpRetrySpec {
  readonly statuses: StatusSpec[];
  readonly limit?: Loose<number>;
  readonly timeout?: DurationSpec;
}

export type StatusSpec =
  | { readonly kind: 'server-errors' | 'gateway-errors' }
  | { readonly kind: 'code'; readonly code: number }
  | { readonly kind: 'range'; readonly from: number; readonly to: number };

export interface GrpcRetrySpec {
  readonly codes: string[];
  readonly limit?: Loose<number>;
  readonly timeout?: DurationSpec;
}

export interface TimeoutsSpec {
  readonly request?: DurationSpec;
  readonly response?: DurationSpec;
  readonly idle?: DurationSpec;
}

export interface SplitSpec {
  readonly app: number;
  readonly parentByName: boolean;
  readonly port: PortChoice;
  readonly percents: Loose<number>[];
  /** Explicit backend port (else the split's port). */
  readonly backendPort?: Loose<number>;
  readonly grpc: boolean;
  readonly httpRetry?: HttpRetrySpec;
  readonly grpcRetry?: GrpcRetrySpec;
  readonly timeouts?: TimeoutsSpec;
}

export type ServerPortSpec =
  | { readonly kind: 'container'; readonly index: number; readonly byName: boolean }
  | { readonly kind: 'number'; readonly value: Loose<number> }
  | { readonly kind: 'name'; readonly value: string };

export type SelectorSpec =
  | { readonly kind: 'app' | 'workload' | 'version-label' }
  | { readonly kind: 'expressions'; readonly operator: string; readonly values?: string[] }
  | { readonly kind: 'labels'; readonly labels: Record<string, string> };

export interface ServerSpec {
  /** undefined = a unique name from the index. */
  readonly name?: string;
  readonly app: number;
  readonly version: number;
  readonly selector: SelectorSpec;
  readonly port: ServerPortSpec;
  readonly proxyProtocol?: string;
  readonly accessPolicy?: string;
}

export interface MeshTlsSpec {
  /** Apps whose ServiceAccount is accepted. */
  readonly serviceAccounts: number[];
  readonly namespaces: string[];
  readonly identities: string[];
}

export interface NetworkSpec {
  readonly cidr: string;
  readonly except?: string[];
}

export type PolicyTargetSpec =
  | { readonly kind: 'server'; readonly server: number }
  | { readonly kind: 'server-name'; readonly name: string }
  | { readonly kind: 'namespace'; readonly name: string }
  | { readonly kind: 'route'; readonly route: number };

export interface PolicySpec {
  readonly name?: string;
  readonly target: PolicyTargetSpec;
  readonly meshTls: MeshTlsSpec[];
  readonly networks: NetworkSpec[][];
  /** Apps whose ServiceAccount is required directly. */
  readonly serviceAccounts: number[];
}

/** `ServerAccess.allow(server, …)`: the intent API. */
export interface AccessSpec {
  readonly policyName?: string;
  readonly server: number;
  readonly serviceAccounts: number[];
  readonly namespaces: string[];
  readonly networks: NetworkSpec[];
}

export interface HeaderSpec {
  readonly name: string;
  readonly value: string;
  readonly regex: boolean;
}

export interface HttpMatchSpec {
  readonly path?: { readonly type: 'exact' | 'prefix' | 'regex'; readonly value: string };
  readonly method?: string;
  readonly headers: HeaderSpec[];
}

export interface GrpcMatchSpec {
  readonly service?: string;
  readonly method?: string;
  readonly headers: HeaderSpec[];
}

export interface BackendSpec {
  readonly target: ServiceRefSpec;
  readonly port: PortChoice;
  readonly weight?: Loose<number>;
}

export interface RouteRuleSpec {
  readonly httpMatches: HttpMatchSpec[];
  readonly grpcMatches: GrpcMatchSpec[];
  readonly backends: BackendSpec[];
  readonly requestTimeout?: DurationSpec;
}

export interface RouteSpec {
  readonly name?: string;
  readonly grpc: boolean;
  readonly parent: ServiceRefSpec;
  readonly port: PortChoice;
  readonly rules: RouteRuleSpec[];
  readonly httpRetry?: HttpRetrySpec;
  readonly grpcRetry?: GrpcRetrySpec;
  readonly timeouts?: TimeoutsSpec;
}

export interface RateLimitSpec {
  readonly name?: string;
  readonly server: number;
  readonly total?: Loose<number>;
  readonly identity?: Loose<number>;
  readonly overrides: { readonly requestsPerSecond: Loose<number>; readonly clients: number[] }[];
}

export interface EgressSpec {
  readonly name?: string;
  readonly trafficPolicy: string;
  readonly networks?: NetworkSpec[];
}

export interface MeshSpec {
  readonly namespace: string;
  readonly defaultInboundPolicy?: string;
  readonly apps: AppSpec[];
  readonly splits: SplitSpec[];
  readonly servers: ServerSpec[];
  readonly accesses: AccessSpec[];
  readonly policies: PolicySpec[];
  readonly routes: RouteSpec[];
  readonly rateLimits: RateLimitSpec[];
  readonly egress: EgressSpec[];
}
