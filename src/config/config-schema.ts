/**
 * The JSON Schema of `.cdk8s-linkerd.yaml`. The same object validates the file at load time and is written to
 * schemas/cdk8s-linkerd-config.schema.json (shipped in the package, for editors); a test keeps the two equal. It uses
 * only the keywords JSON Schema and the API server's structural schemas share, so the conformance validator reads it.
 */
import { CONTEXT_OPTIONS, ContextOption } from '../analysis/context-options';
import type { JsonSchema } from '../conformance/schema';

export const CONFIG_FILE_NAME = '.cdk8s-linkerd.yaml';
export const RULE_LEVELS = ['off', 'info', 'warning', 'error'] as const;
export const FAIL_ON_LEVELS = ['error', 'warning'] as const;

function optionSchema(option: ContextOption): JsonSchema {
  const description = `${option.help} (default: ${option.defaultText}); the CLI's --${option.flag}`;
  switch (option.kind) {
    case 'list': return { description, anyOf: [{ type: 'string' }, { type: 'array', items: { type: 'string' } }] };
    case 'boolean': return { description, type: 'boolean' };
    case 'number': return { description, type: 'integer' };
    // YAML reads `kubernetes-version: 1.31` as a number: the option table takes it as the version string.
    default: return { description, anyOf: [{ type: 'string' }, { type: 'number' }] };
  }
}

/** The schema (draft-07 compatible) of the config file. */
export function configSchema(): JsonSchema {
  const context = Object.fromEntries(CONTEXT_OPTIONS.map((o) => [o.flag, optionSchema(o)]));
  return {
    type: 'object',
    description: 'cdk8s-linkerd settings for a repository: rule levels, the failure threshold, excluded files and '
      + 'what the checks know about the cluster. Command-line flags, MeshChecks.configure() and the cdk8s-cli '
      + 'plugin\'s properties win over this file.',
    additionalProperties: false,
    properties: {
      $schema: { type: 'string', description: 'Where editors find this schema' },
      rules: {
        type: 'object',
        description: 'Rule ID (LKD-AREA-NNN) to off, info, warning or error: turns a rule off or changes the severity of its findings',
        additionalProperties: { type: 'string', enum: [...RULE_LEVELS] },
      },
      failOn: { type: 'string', enum: [...FAIL_ON_LEVELS], description: 'Lowest severity that fails the run (default: error)' },
      exclude: {
        type: 'array',
        description: 'Globs (relative to this file\'s folder; * within a name, ** across folders) of files the CLI and the cdk8s-cli plugin skip, with a note',
        items: { type: 'string', minLength: 1 },
      },
      docsUrl: {
        type: 'string',
        pattern: '^https?://',
        description: 'Base URL of the rule documentation; every finding links to <docsUrl>#<rule id in lower case>',
      },
      ...context,
    },
  };
}

/** The schema file as shipped: the schema plus the draft and an identifier for editors. */
export function configSchemaDocument(): Record<string, unknown> {
  return {
    $schema: 'http://json-schema.org/draft-07/schema#',
    $id: 'https://github.com/maintainers/cdk8s-linkerd/blob/main/schemas/cdk8s-linkerd-config.schema.json',
    title: 'cdk8s-linkerd configuration (.cdk8s-linkerd.yaml)',
    ...configSchema(),
  };
}
