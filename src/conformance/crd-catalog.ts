/**
 * Loads CustomResourceDefinitions from folders of YAML and indexes the served versions by
 * group/version/kind, with their CEL rules compiled once.
 *
 * Order rule: directories are read in the order given, files in a directory in name order,
 * documents in file order. A CRD for a group/kind that is already known REPLACES the earlier one
 * entirely (all its versions), as re-applying a CRD does in a cluster: the last definition wins.
 * So `[LINKERD_CRDS, GATEWAY_API_CRDS]` validates HTTPRoute/GRPCRoute against Gateway API v1.2.1
 * (and keeps Linkerd's TLSRoute/TCPRoute), while the reverse order prefers Linkerd's bundled copies.
 */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { CelRuleCache } from './cel-engine';
import { SchemaRules } from './cel-validation';
import { isJsonObject, JsonObject, JsonSchema } from './schema';

/** One served version of one CRD. */
export interface CrdVersion {
  readonly group: string;
  readonly version: string;
  readonly kind: string;
  readonly plural: string;
  readonly namespaced: boolean;
  /** CRD name (`<plural>.<group>`) and the file it came from, for error messages. */
  readonly crdName: string;
  readonly source: string;
  readonly schema: JsonSchema;
  readonly rules: SchemaRules;
}

const YAML_FILE = /\.(ya?ml|json)$/i;

export class CrdCatalog {
  /** Reads every `.yaml`/`.yml`/`.json` file directly inside each directory (not recursive). */
  public static fromDirectories(dirs: readonly string[]): CrdCatalog {
    const catalog = new CrdCatalog();
    for (const dir of dirs) {
      const files = fs.readdirSync(dir).filter(f => YAML_FILE.test(f)).sort();
      for (const file of files) {
        const full = path.join(dir, file);
        catalog.addDocuments(yaml.loadAll(fs.readFileSync(full, 'utf8')), full);
      }
    }
    return catalog;
  }

  /** Builds a catalog from already-parsed documents (non-CRD documents are ignored). */
  public static fromDocuments(docs: readonly unknown[], source = '<inline>'): CrdCatalog {
    const catalog = new CrdCatalog();
    catalog.addDocuments(docs, source);
    return catalog;
  }

  /** `group/kind` → served versions by version name. */
  private readonly byGroupKind = new Map<string, Map<string, CrdVersion>>();
  /** Files that contributed at least one CRD. */
  private readonly crdFiles = new Set<string>();
  /** Shared across all CRDs so identical rule text is compiled once. */
  private readonly celCache = new CelRuleCache();

  private constructor() {}

  public has(apiVersion: string, kind: string): boolean {
    return this.lookup(apiVersion, kind) !== undefined;
  }

  public lookup(apiVersion: string, kind: string): CrdVersion | undefined {
    const { group, version } = splitApiVersion(apiVersion);
    return this.byGroupKind.get(`${group}/${kind}`)?.get(version);
  }

  /** Every served `apiVersion/kind`, sorted. */
  public get servedKinds(): string[] {
    const out: string[] = [];
    for (const versions of this.byGroupKind.values()) {
      for (const v of versions.values()) out.push(`${v.group}/${v.version}/${v.kind}`);
    }
    return out.sort();
  }

  /** How many of the files read from `dir` held a CRD (a folder without any validates nothing). */
  public crdFilesIn(dir: string): number {
    const folder = path.resolve(dir);
    return [...this.crdFiles].filter((file) => path.resolve(path.dirname(file)) === folder).length;
  }

  private addDocuments(docs: readonly unknown[], source: string): void {
    for (const doc of docs) {
      if (isJsonObject(doc) && doc.kind === 'CustomResourceDefinition' && String(doc.apiVersion).startsWith('apiextensions.k8s.io/')) {
        this.addCrd(doc, source);
        this.crdFiles.add(source);
      }
    }
  }

  private addCrd(crd: JsonObject, source: string): void {
    const spec = crd.spec as JsonObject;
    const names = spec.names as JsonObject;
    const group = String(spec.group);
    const kind = String(names.kind);
    const crdName = String((crd.metadata as JsonObject | undefined)?.name ?? `${names.plural}.${group}`);
    const served = new Map<string, CrdVersion>();
    for (const v of (spec.versions as JsonObject[] | undefined) ?? []) {
      if (v.served === false) continue;
      const schema = versionSchema(v, spec);
      const where = `${crdName} ${String(v.name)} (${source})`;
      served.set(String(v.name), {
        group,
        version: String(v.name),
        kind,
        plural: String(names.plural),
        namespaced: spec.scope !== 'Cluster',
        crdName,
        source,
        schema,
        rules: SchemaRules.compile(schema, this.celCache, where),
      });
    }
    this.byGroupKind.set(`${group}/${kind}`, served); // later definitions replace earlier ones
  }
}

/** Per-version schema, falling back to the legacy top-level `spec.validation`; no schema accepts anything. */
function versionSchema(version: JsonObject, spec: JsonObject): JsonSchema {
  const own = (version.schema as JsonObject | undefined)?.openAPIV3Schema;
  const legacy = (spec.validation as JsonObject | undefined)?.openAPIV3Schema;
  const schema = own ?? legacy;
  return isJsonObject(schema) ? schema as JsonSchema : { 'type': 'object', 'x-kubernetes-preserve-unknown-fields': true };
}

export function splitApiVersion(apiVersion: string): { group: string; version: string } {
  const slash = apiVersion.indexOf('/');
  return slash < 0 ? { group: '', version: apiVersion } : { group: apiVersion.slice(0, slash), version: apiVersion.slice(slash + 1) };
}
