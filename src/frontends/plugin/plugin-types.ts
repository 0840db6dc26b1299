/**
 * The part of the cdk8s-cli validation plugin contract (cdk8s-cli/plugins: ValidationContext, ValidationReport)
 * this plugin uses, declared structurally so cdk8s-cli stays a dev-only dependency.
 */
export interface ViolatingResource {
  readonly resourceName: string;
  readonly locations: readonly string[];
  readonly manifestPath: string;
}

export interface Violation {
  readonly ruleName: string;
  readonly recommendation: string;
  readonly fix: string;
  readonly violatingResources: readonly ViolatingResource[];
}

export interface ValidationReportLike {
  addViolation(violation: Violation): void;
  submit(status: 'success' | 'failure', metadata?: { readonly [key: string]: string }): void;
}

export interface ValidationContextLike {
  readonly manifests: readonly string[];
  /** Resource name (metadata.name) → construct path; recorded by cdk8s when validations are configured. */
  readonly metadata?: { readonly [resourceName: string]: { readonly path: string } };
  readonly report: ValidationReportLike;
  readonly logger?: { log(message: string): void };
}
