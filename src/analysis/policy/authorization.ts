/**
 * Whether one caller satisfies one AuthorizationPolicy or one default policy, with the reason in words.
 * This is the static counterpart of what the inbound proxy decides per connection.
 */
import { Cidr, cidrContains, cidrsOverlap, parseCidr } from '../../core/cidr';
import { POLICY_GROUP } from '../../core/vocabulary';
import { serviceAccountIdentity } from '../model/identity/service-accounts';
import { ResourceId } from '../model/manifest';
import { MeshIndex } from '../model/mesh-index';
import { IndexedObject } from '../model/object-store';
import { specOf } from '../model/objects';
import { isCoreRef, isPolicyRef, kindIs, refList } from '../model/refs';
import { AnalysisContext } from '../options';

/** A client as the inbound proxy sees it. */
export interface Caller {
  /** True when the client has a Linkerd proxy, so its connections carry an mTLS identity. */
  readonly meshed: boolean;
  /** The client's namespace (its identity's namespace when meshed). */
  readonly namespace?: string;
  /** The client's ServiceAccount; `default` when omitted. */
  readonly serviceAccount?: string;
  /** The client's IP, when known. */
  readonly ip?: string;
  /**
   * Without `ip`, whether the client is assumed to have some address inside `clusterNetworks`.
   * @default true
   */
  readonly inCluster?: boolean;
  /** How messages name the caller. */
  readonly label?: string;
  /**
   * The mTLS identity the caller presents, when it is not this cluster's identity of `serviceAccount` in `namespace`:
   * a caller from another cluster of a fleet presents its own cluster's trust domain.
   */
  readonly identity?: string;
}

export interface Decision {
  readonly allowed: boolean;
  readonly reason: string;
  /** True when the decision comes from an `audit` policy: allowed, but the proxy logs it as a would-be denial. */
  readonly audited?: boolean;
  /**
   * True for a refusal that hangs on the caller's address, which the manifests do not give: some authorization admits
   * part of the cluster networks, so a pod with an address there is admitted and others are not.
   */
  readonly uncertain?: boolean;
  /**
   * True for a refusal only because the target is not in what the analysis sees: the Service (or the workloads behind
   * it) may exist in the cluster outside the manifests, so neither answer can be proved.
   */
  readonly unseen?: boolean;
  /**
   * The objects that decide: the admitting policy and its authentications, or, for a refusal or a default, the Server
   * (with the authorizations that did not admit), the Namespace or the workload whose default applies.
   */
  readonly deciders?: readonly ResourceId[];
  /**
   * Set on a connection-level decision when only route-level authorizations admit the caller: the routes whose
   * requests get through (the proxy refuses its requests on every other route).
   */
  readonly onlyRoutes?: readonly ResourceId[];
}

/** The MeshTLSAuthentication and NetworkAuthentication objects an AuthorizationPolicy requires (those that exist). */
export function authenticationsOf(index: MeshIndex, policy: IndexedObject): ResourceId[] {
  const ns = policy.id.namespace;
  return refList(specOf(policy).requiredAuthenticationRefs).flatMap((ref) => {
    const kind = isPolicyRef(ref, 'MeshTLSAuthentication') ? 'MeshTLSAuthentication' : isPolicyRef(ref, 'NetworkAuthentication') ? 'NetworkAuthentication' : undefined;
    const object = kind ? index.get(POLICY_GROUP, kind, ref.namespace ?? ns, String(ref.name)) : undefined;
    return object ? [object.id] : [];
  });
}

export function callerLabel(caller: Caller): string {
  if (caller.label) return caller.label;
  return caller.meshed ? `meshed ${caller.namespace ?? '?'}/${caller.serviceAccount ?? 'default'}` : 'an unmeshed (plaintext) client';
}

export function callerIdentity(caller: Caller, context: AnalysisContext): string | undefined {
  if (!caller.meshed) return undefined;
  if (caller.identity !== undefined) return caller.identity;
  if (caller.namespace === undefined) return undefined;
  return serviceAccountIdentity(caller.serviceAccount ?? 'default', caller.namespace, context);
}

// ---------------------------------------------------------------------------------------------------------------
// Networks

function anyContains(networks: Cidr[], ip: Cidr): boolean {
  return networks.some((n) => cidrContains(n, ip));
}

/** True when the caller's address is known, or assumed, to be inside the cluster networks. */
export function callerInCluster(caller: Caller, context: AnalysisContext): boolean {
  const ip = parseCidr(caller.ip);
  if (!ip) return caller.inCluster ?? true;
  return anyContains(context.clusterNetworks.map(parseCidr).filter((c): c is Cidr => !!c), ip);
}

interface NetworkEntry {
  readonly cidr: Cidr;
  readonly except: Cidr[];
}

function networkEntries(value: unknown): NetworkEntry[] {
  const entries: NetworkEntry[] = [];
  for (const net of refList(value) as any[]) {
    const cidr = parseCidr(net.cidr);
    if (!cidr) continue;
    const except = (Array.isArray(net.except) ? net.except : []).map(parseCidr).filter((c: Cidr | undefined): c is Cidr => !!c);
    entries.push({ cidr, except });
  }
  return entries;
}

function entryAdmits(entry: NetworkEntry, range: Cidr): boolean {
  return cidrContains(entry.cidr, range) && !entry.except.some((e) => cidrsOverlap(e, range));
}

/** Whether an in-cluster caller of unknown address could be admitted: some cluster network overlaps an admitted one. */
function mayAdmitUnknownAddress(entries: NetworkEntry[], caller: Caller, context: AnalysisContext): boolean {
  if (parseCidr(caller.ip) || !(caller.inCluster ?? true)) return false;
  return context.clusterNetworks.map(parseCidr).some((range) => range !== undefined && entries.some((e) => cidrsOverlap(e.cidr, range)));
}

/**
 * A caller with a known IP must fall in one network; one with an unknown in-cluster address is admitted only when
 * every cluster network is admitted, since it could have any pod IP.
 */
function networksAdmit(entries: NetworkEntry[], caller: Caller, context: AnalysisContext): boolean {
  const ip = parseCidr(caller.ip);
  if (ip) return entries.some((e) => entryAdmits(e, ip));
  if (!(caller.inCluster ?? true)) return false;
  const cluster = context.clusterNetworks.map(parseCidr).filter((c): c is Cidr => !!c);
  return cluster.length > 0 && cluster.every((range) => entries.some((e) => entryAdmits(e, range)));
}

/** The cluster networks, as the networks of an authorization that names none. */
function clusterEntries(context: AnalysisContext): NetworkEntry[] {
  return context.clusterNetworks.map(parseCidr).filter((c): c is Cidr => !!c).map((cidr) => ({ cidr, except: [] }));
}

/** What an authorization's networks make of a caller: admitted, refused, or refused only if its unknown address lies outside. */
export enum NetworkVerdict {
  ADMITTED = 'admitted',
  UNCERTAIN = 'uncertain',
  REFUSED = 'refused',
}

/**
 * Whether an authorization's networks admit the caller. An empty list (a ServerAuthorization without client.networks,
 * a NetworkAuthentication without networks) is sent to the proxy as the cluster networks (policy-controller/grpc/src/
 * inbound.rs to_authz), so it admits no client from outside them. An AuthorizationPolicy that names no
 * NetworkAuthentication is not such a list: the index gives it 0.0.0.0/0 and ::/0 (inbound/index.rs
 * policy_client_authz), every network. A caller whose address the manifests do not fix, and which some admitted network
 * could hold, is UNCERTAIN: its pod IP decides.
 */
export function authorizedNetworks(networks: unknown, caller: Caller, context: AnalysisContext): NetworkVerdict {
  const listed = networkEntries(networks);
  const entries = listed.length > 0 ? listed : clusterEntries(context);
  if (networksAdmit(entries, caller, context)) return NetworkVerdict.ADMITTED;
  return mayAdmitUnknownAddress(entries, caller, context) ? NetworkVerdict.UNCERTAIN : NetworkVerdict.REFUSED;
}

// ---------------------------------------------------------------------------------------------------------------
// Default policies

/** What a default policy (or a Server's accessPolicy) does with a caller that no authorization admitted. */
export function defaultPolicyAllows(policy: string, caller: Caller, context: AnalysisContext, origin: string): Decision {
  const who = callerLabel(caller);
  switch (policy) {
    case 'all-unauthenticated':
      return { allowed: true, reason: `${origin} is all-unauthenticated: everyone, including plaintext clients, is allowed` };
    case 'audit':
      return { allowed: true, audited: true, reason: `${origin} is audit: ${who} is allowed and the proxy logs it as a would-be denial` };
    case 'all-authenticated':
      return caller.meshed
        ? { allowed: true, reason: `${origin} is all-authenticated and ${who} presents an mTLS identity` }
        : { allowed: false, reason: `${origin} is all-authenticated and ${who} has no mTLS identity` };
    case 'cluster-unauthenticated':
      return callerInCluster(caller, context)
        ? { allowed: true, reason: `${origin} is cluster-unauthenticated and ${who} connects from the cluster networks` }
        : { allowed: false, reason: `${origin} is cluster-unauthenticated and ${who} connects from outside the cluster networks` };
    case 'cluster-authenticated':
      if (!caller.meshed) return { allowed: false, reason: `${origin} is cluster-authenticated and ${who} has no mTLS identity` };
      return callerInCluster(caller, context)
        ? { allowed: true, reason: `${origin} is cluster-authenticated and ${who} is meshed and inside the cluster networks` }
        : { allowed: false, reason: `${origin} is cluster-authenticated and ${who} connects from outside the cluster networks` };
    case 'deny':
      return { allowed: false, reason: `${origin} is deny and no authorization admits ${who}` };
    default:
      return { allowed: false, reason: `${origin} has the unrecognised value ${JSON.stringify(policy)}; Linkerd rejects or ignores it` };
  }
}

// ---------------------------------------------------------------------------------------------------------------
// AuthorizationPolicy

function identityMatches(pattern: string, identity: string): boolean {
  if (pattern === '*') return true;
  if (pattern.startsWith('*.')) return identity.endsWith(pattern.slice(1));
  return pattern === identity;
}

/**
 * Whether the caller is ServiceAccount `namespace/name` as the policy controller sees it: the controller turns the
 * reference into this cluster's identity string, so a remote caller matches only when its identity is that string.
 */
function isServiceAccount(caller: Caller, name: string, namespace: string | undefined, context: AnalysisContext): boolean {
  if (!caller.meshed) return false;
  if (caller.identity !== undefined) return namespace !== undefined && caller.identity === serviceAccountIdentity(name, namespace, context);
  return (caller.serviceAccount ?? 'default') === name && namespace === caller.namespace;
}

/** A Namespace reference stands for every ServiceAccount identity of that namespace in this cluster. */
function isInNamespace(caller: Caller, namespace: unknown, context: AnalysisContext): boolean {
  if (caller.identity === undefined) return namespace === caller.namespace;
  const suffix = serviceAccountIdentity('x', String(namespace), context).slice(1);
  return caller.identity.endsWith(suffix);
}

function meshTlsAdmits(authn: IndexedObject, caller: Caller, context: AnalysisContext): boolean {
  const identity = callerIdentity(caller, context);
  if (!identity) return false;
  const spec = specOf(authn);
  if (Array.isArray(spec.identities)) {
    return spec.identities.some((p: unknown) => typeof p === 'string' && identityMatches(p, identity));
  }
  return refList(spec.identityRefs).some((ref) => {
    if (isCoreRef(ref, 'Namespace')) return isInNamespace(caller, ref.name, context);
    if (isCoreRef(ref, 'ServiceAccount')) return isServiceAccount(caller, String(ref.name), ref.namespace ?? authn.id.namespace, context);
    return false;
  });
}

export interface PolicyMatch {
  readonly admitted: boolean;
  /** Why the policy does or does not admit the caller. */
  readonly reason: string;
  /** A refusal only because the caller's unknown address may lie outside the networks it admits (see Decision.uncertain). */
  readonly uncertain?: boolean;
}

/**
 * An AuthorizationPolicy admits a caller when every kind of authentication it requires is satisfied: identity
 * (one MeshTLSAuthentication or ServiceAccount) and network (one NetworkAuthentication; without one, every network:
 * inbound/index.rs policy_client_authz). An empty list admits every client, plaintext ones from anywhere included.
 * A reference to a missing authentication makes the index ignore the whole policy.
 */
export function authorizationAdmits(index: MeshIndex, policy: IndexedObject, caller: Caller, context: AnalysisContext): PolicyMatch {
  const name = `AuthorizationPolicy ${policy.id.name}`;
  const refs = specOf(policy).requiredAuthenticationRefs;
  if (!Array.isArray(refs)) return { admitted: false, reason: `${name} has no requiredAuthenticationRefs list and is rejected` };
  const ns = policy.id.namespace;
  const who = callerLabel(caller);
  for (const ref of refList(refs)) {
    const refNs = ref.namespace ?? ns;
    if (isPolicyRef(ref, 'MeshTLSAuthentication')) {
      const authn = index.get(POLICY_GROUP, 'MeshTLSAuthentication', refNs, String(ref.name));
      if (!authn) return { admitted: false, reason: `${name} references a missing MeshTLSAuthentication ${ref.name}; Linkerd ignores the policy` };
      if (!meshTlsAdmits(authn, caller, context)) return { admitted: false, reason: `${name}: MeshTLSAuthentication ${ref.name} does not match ${who}` };
    } else if (isPolicyRef(ref, 'NetworkAuthentication')) {
      const authn = index.get(POLICY_GROUP, 'NetworkAuthentication', refNs, String(ref.name));
      if (!authn) return { admitted: false, reason: `${name} references a missing NetworkAuthentication ${ref.name}; Linkerd ignores the policy` };
      const networks = authorizedNetworks(specOf(authn).networks, caller, context);
      if (networks === NetworkVerdict.UNCERTAIN) {
        return { admitted: false, uncertain: true, reason: `${name}: NetworkAuthentication ${ref.name} admits only part of the cluster networks, and ${who}'s address decides` };
      }
      if (networks === NetworkVerdict.REFUSED) return { admitted: false, reason: `${name}: ${who} is not inside NetworkAuthentication ${ref.name}` };
    } else if (isCoreRef(ref, 'ServiceAccount')) {
      const matches = isServiceAccount(caller, String(ref.name), refNs, context);
      if (!matches) return { admitted: false, reason: `${name} requires ServiceAccount ${refNs}/${ref.name}, which ${who} is not` };
    } else {
      return { admitted: false, reason: `${name} references unsupported ${String(ref.kind)} and is rejected by the webhook` };
    }
  }
  return { admitted: true, reason: `${name} admits ${who}` };
}

/** Whether a policy's authentication needs the caller to be meshed (used to tell probe-friendly policies apart). */
export function requiresIdentity(policy: IndexedObject): boolean {
  return refList(specOf(policy).requiredAuthenticationRefs)
    .some((ref) => kindIs(ref, 'MeshTLSAuthentication') || kindIs(ref, 'ServiceAccount'));
}
