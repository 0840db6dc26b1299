/**
 * Objects in words, for explain and diff: matches, the authentications an authorization requires, and the identities
 * and namespaces it names (the callers decided differently from `other-meshed`).
 */
import { NOWHERE, identityParts } from './adapter-callers';
import { POLICY_GROUP } from '../../core/vocabulary';
import { authorizationTarget } from '../model/inbound/authorizations';
import { MeshIndex, PodTemplate } from '../model/mesh-index';
import { IndexedObject } from '../model/object-store';
import { specOf } from '../model/objects';
import { isCoreRef, isPolicyRef, refList } from '../model/refs';

export function workloadText(pod: PodTemplate): string {
  return `${pod.namespace}/${pod.owner.id.name}`;
}

export function portTarget(pod: PodTemplate, port: number): string {
  return `${workloadText(pod)}:${port}`;
}

export function matchText(match: any): string {
  if (!match || typeof match !== 'object') return 'every request';
  const parts: string[] = [];
  if (typeof match.method === 'string') parts.push(match.method);
  else if (match.method && typeof match.method === 'object') parts.push(`${match.method.service ?? '*'}/${match.method.method ?? '*'}`);
  if (match.path && typeof match.path === 'object') parts.push(`${match.path.value ?? '/'} (${match.path.type ?? 'PathPrefix'})`);
  for (const h of refList(match.headers) as any[]) parts.push(`header ${h.name}: ${h.value}`);
  for (const q of refList(match.queryParams) as any[]) parts.push(`query ${q.name}=${q.value}`);
  return parts.length > 0 ? parts.join(' ') : 'every request';
}

export function ruleMatches(rule: any): string[] {
  const matches = Array.isArray(rule?.matches) ? rule.matches : [];
  return matches.map(matchText);
}

export function routeMatchTexts(route: IndexedObject): string[] {
  const rules = Array.isArray(specOf(route).rules) ? specOf(route).rules : [];
  return rules.flatMap(ruleMatches);
}

export function authenticationWords(index: MeshIndex, policy: IndexedObject): string[] {
  const ns = policy.id.namespace;
  return refList(specOf(policy).requiredAuthenticationRefs).map((ref) => {
    const refNs = ref.namespace ?? ns;
    if (isPolicyRef(ref, 'MeshTLSAuthentication')) {
      const authn = index.get(POLICY_GROUP, 'MeshTLSAuthentication', refNs, String(ref.name));
      if (!authn) return `MeshTLSAuthentication ${ref.name} (missing: Linkerd ignores the policy)`;
      const spec = specOf(authn);
      const who = Array.isArray(spec.identities)
        ? spec.identities.map(String)
        : refList(spec.identityRefs).map((r) => `${r.kind} ${r.namespace ?? authn.id.namespace}/${r.name}`);
      return `MeshTLSAuthentication ${ref.name}: ${who.join(', ') || '(nobody)'}`;
    }
    if (isPolicyRef(ref, 'NetworkAuthentication')) {
      const authn = index.get(POLICY_GROUP, 'NetworkAuthentication', refNs, String(ref.name));
      if (!authn) return `NetworkAuthentication ${ref.name} (missing: Linkerd ignores the policy)`;
      const nets = refList(specOf(authn).networks).map((n: any) => `${n.cidr}${Array.isArray(n.except) ? ` except ${n.except.join(' ')}` : ''}`);
      return `NetworkAuthentication ${ref.name}: ${nets.join(', ') || '(no network)'}`;
    }
    if (isCoreRef(ref, 'ServiceAccount')) return `ServiceAccount ${refNs}/${ref.name}`;
    return `${String(ref.kind)} ${String(ref.name)} (unsupported)`;
  });
}

export function targetWords(policy: IndexedObject): string {
  const target = authorizationTarget(policy);
  return target ? `${target.kind} ${target.name}` : 'an unsupported target';
}

// ---------------------------------------------------------------------------------------------------------------
// Who an authorization names

export interface Named {
  readonly identities: Set<string>;
  readonly namespaces: Set<string>;
}

function addPattern(named: Named, pattern: unknown): void {
  if (typeof pattern !== 'string' || pattern === '*') return;
  const parts = identityParts(pattern.startsWith('*.') ? pattern : pattern);
  if (!parts) return;
  if (parts[1] === NOWHERE) named.namespaces.add(parts[0]);
  else named.identities.add(`${parts[0]}/${parts[1]}`);
}

function namedBy(index: MeshIndex, policy: IndexedObject, named: Named): void {
  const ns = policy.id.namespace ?? '';
  if (policy.id.kind === 'ServerAuthorization') {
    const mtls = specOf(policy).client?.meshTLS;
    if (!mtls || typeof mtls !== 'object') return;
    for (const p of Array.isArray(mtls.identities) ? mtls.identities : []) addPattern(named, p);
    for (const sa of refList(mtls.serviceAccounts)) named.identities.add(`${sa.namespace ?? ns}/${sa.name}`);
    return;
  }
  for (const ref of refList(specOf(policy).requiredAuthenticationRefs)) {
    const refNs = ref.namespace ?? ns;
    if (isCoreRef(ref, 'ServiceAccount')) named.identities.add(`${refNs}/${ref.name}`);
    if (!isPolicyRef(ref, 'MeshTLSAuthentication')) continue;
    const authn = index.get(POLICY_GROUP, 'MeshTLSAuthentication', refNs, String(ref.name));
    if (!authn) continue;
    const spec = specOf(authn);
    for (const p of Array.isArray(spec.identities) ? spec.identities : []) addPattern(named, p);
    for (const r of refList(spec.identityRefs)) {
      if (isCoreRef(r, 'Namespace')) named.namespaces.add(String(r.name));
      else if (isCoreRef(r, 'ServiceAccount')) named.identities.add(`${r.namespace ?? authn.id.namespace}/${r.name}`);
    }
  }
}

export interface ReadAuthorization {
  readonly named: Named;
  readonly target: string;
  readonly requires: string[];
}

/** An authorization is read once, however many ports its Server or namespace covers. */
const authorizationsRead = new WeakMap<IndexedObject, ReadAuthorization>();

export function readAuthorization(index: MeshIndex, object: IndexedObject): ReadAuthorization {
  let read = authorizationsRead.get(object);
  if (!read) {
    const named: Named = { identities: new Set(), namespaces: new Set() };
    namedBy(index, object, named);
    const legacy = object.id.kind === 'ServerAuthorization';
    const requires = legacy ? [`client ${JSON.stringify(specOf(object).client ?? null)} (legacy ServerAuthorization)`] : authenticationWords(index, object);
    read = { named, target: legacy ? '' : targetWords(object), requires };
    authorizationsRead.set(object, read);
  }
  return read;
}
