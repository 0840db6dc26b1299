/**
 * LKD-SCHEMA-001, the adapter from the CRD conformance validator to the engine: `--crds DIR` (CLI) or `crds` (plugin)
 * turns into one more rule, so schema findings get the engine's suppressions, sorting and inventory handling for free.
 * This is the only file that knows the conformance API.
 */
import type { ConformanceValidator, CrdCatalog } from '../../../conformance';
import { InputError } from '../../../core/input-error';
import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { Rule, RuleArea, RuleContext } from '../../rule';

type Conformance = typeof import('../../../conformance');

/**
 * The CEL engine and CRD schemas cost time and memory at load; only `--crds` / `crds` needs them, so they are loaded
 * then, not whenever the library or the CLI is imported.
 */
function conformance(): Conformance {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  return require('../../../conformance');
}

export const SCHEMA_RULE_ID = 'LKD-SCHEMA-001';

const SCHEMA_DOC = {
  title: 'Objects must pass the schema and CEL validation of their CRD (or built-in kind)',
  why: 'The API server validates every object against its CustomResourceDefinition (OpenAPI schema and '
    + 'x-kubernetes-validations) and rejects the whole apply when one fails.',
  fix: 'Correct the field the message names; compare with the CRD given to --crds.',
  linkerdSource: 'not Linkerd: Kubernetes API server (OpenAPI schema and x-kubernetes-validations CEL rules of the CRDs '
    + 'given to --crds, e.g. Linkerd 2.20\'s and Gateway API v1.2.1\'s)',
};

/** Documentation-only stand-in used in rule listings and SARIF when no --crds run defines the real rule. */
export const SCHEMA_RULE_DESCRIPTOR = { id: SCHEMA_RULE_ID, severity: Severity.ERROR, doc: SCHEMA_DOC };

function loadCatalog(dirs: readonly string[]): CrdCatalog {
  let catalog: CrdCatalog;
  try {
    catalog = conformance().CrdCatalog.fromDirectories(dirs);
  } catch (e: any) {
    throw new InputError(`--crds ${dirs.join(', ')}: cannot load CRDs (${e.message ?? e})`);
  }
  // A folder without CRDs (a typo, the wrong checkout) would validate nothing and still report "0 errors".
  const empty = dirs.filter((dir) => catalog.crdFilesIn(dir) === 0);
  if (empty.length > 0) {
    throw new InputError(`--crds ${empty.join(', ')}: no CustomResourceDefinition in the *.yaml, *.yml or *.json files directly `
      + 'in this folder; point --crds at the folder holding the CRDs (e.g. the linkerd-crds chart\'s rendered templates)');
  }
  return catalog;
}

/** Groups the catalog serves: an unknown version or kind in one of them is an error, unknown groups are skipped. */
function knownGroups(catalog: CrdCatalog): Set<string> {
  return new Set(catalog.servedKinds.map((gvk) => gvk.split('/')[0]));
}

function shouldValidate(entry: IndexedObject, catalog: CrdCatalog, groups: Set<string>, lib: Conformance): boolean {
  const { apiVersion, kind } = entry.id;
  if (catalog.has(apiVersion, kind) || lib.CORE_KINDS[`${apiVersion}/${kind}`]) return true;
  const { group } = lib.splitApiVersion(apiVersion);
  return group !== '' && groups.has(group);
}

function reportIssues(ctx: RuleContext, entry: IndexedObject, validator: ConformanceValidator): void {
  for (const issue of validator.validate(entry.object)) {
    ctx.report(entry, issue.path ? `${issue.path}: ${issue.message}` : issue.message);
  }
}

/** The LKD-SCHEMA-001 rule over the CRDs in `dirs` (each read non-recursively; later folders win). */
export function schemaRule(dirs: readonly string[]): Rule {
  const lib = conformance();
  const catalog = loadCatalog(dirs);
  const validator = new lib.ConformanceValidator(catalog);
  const groups = knownGroups(catalog);
  return {
    ...SCHEMA_RULE_DESCRIPTOR,
    area: RuleArea.SCHEMA,
    check(ctx) {
      for (const entry of ctx.index.objects) {
        if (!entry.inventory && shouldValidate(entry, catalog, groups, lib)) reportIssues(ctx, entry, validator);
      }
    },
  };
}
