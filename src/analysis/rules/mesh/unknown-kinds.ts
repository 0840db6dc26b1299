import { GATEWAY_API_GROUP, kindsOfGroup, knownApiGroups, servedVersions } from '../../../core/served-kinds';
import { Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { Rule, RuleArea, RuleContext } from '../../rule';

const KNOWN_GROUPS = new Set(knownApiGroups());

/** The group whose kinds include `kind` (exactly, or ignoring case), for the "did you mean" of a finding. */
function groupsWithKind(kind: string): { group: string; kind: string }[] {
  const lower = kind.toLowerCase();
  const found: { group: string; kind: string }[] = [];
  for (const group of KNOWN_GROUPS) {
    const match = kindsOfGroup(group)!.find((k) => k.toLowerCase() === lower);
    if (match) found.push({ group, kind: match });
  }
  return found;
}

function preferredApiVersion(group: string, kind: string): string {
  const versions = servedVersions(group, kind);
  return versions ? `${group}/${versions[versions.length - 1]}` : `${group}/v1`;
}

/** `apiVersion: policy.linkerd.io` (a group without a version) reads as a core-group version nobody serves. */
function checkVersionless(ctx: RuleContext, entry: IndexedObject): void {
  const group = entry.id.apiVersion;
  const kinds = kindsOfGroup(group)!;
  const kind = kinds.find((k) => k.toLowerCase() === entry.id.kind.toLowerCase());
  const write = kind ? `apiVersion: ${preferredApiVersion(group, kind)}` : `apiVersion: ${group}/<version>`;
  ctx.report(entry, `apiVersion "${group}" is an API group without a version, so no API serves it: kubectl apply fails `
    + `and no check here applies to this ${entry.id.kind}.`, { fix: `Write ${write}${kind && kind !== entry.id.kind ? ` and kind: ${kind}` : ''}.` });
}

function checkKind(ctx: RuleContext, entry: IndexedObject, kinds: readonly string[]): void {
  const { kind } = entry.id;
  const elsewhere = groupsWithKind(kind);
  const sameGroup = elsewhere.find((g) => g.group === entry.group);
  const listKind = kind.endsWith('List') && kinds.includes(kind.slice(0, -'List'.length));
  let fix: string;
  if (sameGroup) fix = `Kinds are case-sensitive: write kind: ${sameGroup.kind}.`;
  else if (listKind) fix = `Put the objects under items: (kubectl reads a ${kind} only with an items list), or write each as a ${kind.slice(0, -4)}.`;
  else if (elsewhere.length > 0) fix = `${elsewhere[0].kind} is a ${elsewhere[0].group} kind: write apiVersion: ${preferredApiVersion(elsewhere[0].group, elsewhere[0].kind)}.`;
  else fix = `Use one of the kinds ${entry.group} serves: ${kinds.join(', ')}.`;
  ctx.report(entry, `kind "${kind}" is not a kind ${entry.group} serves, so kubectl apply fails ("no matches for kind") and no `
    + 'check here applies to this object.', { fix });
}

function checkVersion(ctx: RuleContext, entry: IndexedObject, versions: readonly string[]): void {
  ctx.report(entry, `${entry.id.apiVersion} is not a version Linkerd 2.20 serves for ${entry.id.kind} (served: ${versions.join(', ')}), `
    + 'so kubectl apply fails; other findings on it judge it as if that version were served.', { fix: `Write apiVersion: ${preferredApiVersion(entry.group, entry.id.kind)}.` });
}

/** Reports what is wrong with the object's apiVersion and kind; whether there was anything (it depends on those two alone). */
function checkObject(ctx: RuleContext, entry: IndexedObject): boolean {
  if (!entry.id.apiVersion.includes('/')) {
    if (!KNOWN_GROUPS.has(entry.id.apiVersion)) return false;
    checkVersionless(ctx, entry);
    return true;
  }
  const kinds = kindsOfGroup(entry.group);
  if (!kinds) return false;
  if (!kinds.includes(entry.id.kind)) {
    checkKind(ctx, entry, kinds);
    return true;
  }
  const versions = servedVersions(entry.group, entry.id.kind);
  const version = entry.id.apiVersion.slice(entry.group.length + 1);
  if (!versions || versions.includes(version)) return false;
  checkVersion(ctx, entry, versions);
  return true;
}

/** An object of a Linkerd or Gateway API group that its CRDs do not serve is not a mesh object at all. */
export const unknownKindsRule: Rule = {
  id: 'LKD-MESH-012',
  area: RuleArea.MESH,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Rejected: the Kubernetes API server answers "no matches for kind" for a kind or version the CRDs '
      + '(charts/linkerd-crds/templates) do not serve.',
    title: 'Objects of the Linkerd and Gateway API groups are kinds and versions the cluster serves',
    why: 'The API server serves a group\'s kinds only as their CRDs define them, and kinds are case-sensitive: `kind: HttpRoute` '
      + '(the cdk8s class spelling), `kind: server`, `apiVersion: policy.linkerd.io` without a version or an unknown '
      + 'version make kubectl apply fail with "no matches for kind", and every check here passes over such an object, so '
      + `its mistakes go unseen. Linkerd 2.20's CRDs (charts/linkerd-crds, linkerd-multicluster's Link) and the ${GATEWAY_API_GROUP} `
      + 'kinds of Gateway API v1.2.1-v1.5.1 are known (src/core/served-kinds.ts).',
    linkerdSource: 'charts/linkerd-crds/templates/policy/server.yaml and the other CRD templates of charts/linkerd-crds/templates (the kinds and versions Linkerd serves)',
    fix: 'Spell the kind as its CRD does (HTTPRoute, Server, ...) and write apiVersion as group/version with a served version.',
    badExample: 'apiVersion: gateway.networking.k8s.io/v1\nkind: HttpRoute',
    goodExample: 'apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute',
  },
  check(ctx) {
    // apiVersion → the kinds already found fine with it: thousands of objects share a few pairs, judged once each.
    const fine = new Map<string, Set<string>>();
    for (const entry of ctx.index.objects) {
      const { apiVersion, kind } = entry.id;
      if (entry.inventory || fine.get(apiVersion)?.has(kind)) continue;
      if (checkObject(ctx, entry)) continue;
      let kinds = fine.get(apiVersion);
      if (!kinds) fine.set(apiVersion, kinds = new Set());
      kinds.add(kind);
    }
  },
};
