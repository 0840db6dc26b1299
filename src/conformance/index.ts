/**
 * CRD conformance harness: validates plain Kubernetes objects against the real
 * CustomResourceDefinitions of their kinds (and built-in schemas for core kinds), the way the
 * API server would on create. Internal module: not part of the jsii public API.
 */
export { CrdCatalog, splitApiVersion } from './crd-catalog';
export type { CrdVersion } from './crd-catalog';
export { ConformanceValidator } from './validator';
export type { ConformanceValidatorOptions, ConformanceResult } from './validator';
export { ConformanceHarnessError } from './issues';
export type { ConformanceIssue } from './issues';
export type { CelErrorPolicy } from './cel-validation';
export { escapeCelPropertyName } from './cel-engine';
export { CORE_KINDS } from './core-schemas';
export type { CoreKind } from './core-schemas';
export type { JsonSchema, ValidationRule } from './schema';
