/** Tiny CRDs written inline in tests, so each schema keyword can be exercised in isolation. */
import { ConformanceValidator, ConformanceValidatorOptions, CrdCatalog, JsonSchema } from '../../src/conformance';

export const API_VERSION = 'test.example.com/v1';
export const KIND = 'Widget';

/** A CustomResourceDefinition document whose `spec` property has the given schema. */
export function widgetCrd(spec: JsonSchema, root: Partial<JsonSchema> = {}, group = 'test.example.com'): Record<string, unknown> {
  return {
    apiVersion: 'apiextensions.k8s.io/v1',
    kind: 'CustomResourceDefinition',
    metadata: { name: `widgets.${group}` },
    spec: {
      group,
      scope: 'Namespaced',
      names: { kind: KIND, plural: 'widgets', singular: 'widget' },
      versions: [{
        name: 'v1',
        served: true,
        storage: true,
        schema: { openAPIV3Schema: { type: 'object', properties: { spec }, ...root } },
      }],
    },
  };
}

export function widgetValidator(spec: JsonSchema, options?: ConformanceValidatorOptions, root?: Partial<JsonSchema>): ConformanceValidator {
  return new ConformanceValidator(CrdCatalog.fromDocuments([widgetCrd(spec, root)]), options);
}

export function widget(spec: unknown, name = 'w1'): Record<string, unknown> {
  return { apiVersion: API_VERSION, kind: KIND, metadata: { name, namespace: 'default' }, spec };
}
