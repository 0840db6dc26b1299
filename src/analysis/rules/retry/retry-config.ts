/**
 * How Linkerd 2.20 resolves retry and timeout settings for a route: the route's own annotations when it has any
 * of its kind's retry keys, otherwise its parent Service's or EgressNetwork's (a whole-block replacement, never a
 * per-key merge). The outbound index reads an EgressNetwork's annotations exactly as a Service's (index.rs, both
 * `apply`s), and the gRPC server hands either parent's settings to its routes (grpc/src/outbound/http.rs `protocol`).
 */
import {
  Parsed, parseGrpcRetryCodes, parseHttpRetryConditions, parseK8sDuration, parseLinkerdDuration, parseRetryLimit,
} from '../../../core/linkerd-grammar';
import {
  RETRY_GRPC_ANNOTATION, RETRY_HTTP_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION, TIMEOUT_ANNOTATIONS, TIMEOUT_REQUEST_ANNOTATION,
  POLICY_GROUP,
} from '../../../core/vocabulary';
import { hasOwn, isRecord } from '../../../util/json';
import { annotationOf, annotationsOf, hasAnnotation, textOf } from '../../model/manifest';
import { perIndex, perKeyOfIndex } from '../../model/memo';
import { IndexedObject, MeshIndex, PodTemplate } from '../../model/mesh-index';
import { isGatewayHttpRoute, isGrpcRoute, isHttpRoute, rules } from '../../model/routes/lists';
import { egressNetworkParents, serviceParents } from '../../model/routes/parents';

const GRPC_RETRY_KEYS: readonly string[] = Object.freeze([RETRY_GRPC_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION]);
const HTTP_RETRY_KEYS: readonly string[] = Object.freeze([RETRY_HTTP_ANNOTATION, RETRY_LIMIT_ANNOTATION, RETRY_TIMEOUT_ANNOTATION]);
const NO_KEYS: readonly string[] = Object.freeze([]);

/**
 * How the outbound index reads each retry and timeout annotation (index/http.rs parse_http_retry, index/grpc.rs
 * parse_grpc_retry, index.rs parse_timeouts and parse_duration).
 */
export const ANNOTATION_PARSERS: Readonly<Record<string, (value: unknown) => Parsed<unknown>>> = {
  [RETRY_HTTP_ANNOTATION]: parseHttpRetryConditions,
  [RETRY_GRPC_ANNOTATION]: parseGrpcRetryCodes,
  [RETRY_LIMIT_ANNOTATION]: parseRetryLimit,
  [RETRY_TIMEOUT_ANNOTATION]: parseLinkerdDuration,
  ...Object.fromEntries(TIMEOUT_ANNOTATIONS.map((k) => [k, parseLinkerdDuration])),
};

/** Whether every one of `keys` that the object carries reads: one that does not drops its block (or a route whole). */
export function annotationsRead(obj: IndexedObject, keys: readonly string[]): boolean {
  const present = presentKeys(obj, keys);
  if (present.length === 0) return true;
  const annotations = annotationsOf(obj.object);
  return present.every((k) => ANNOTATION_PARSERS[k](textOf(annotations, k)).ok);
}

/** The retry keys a route of this kind reads (an HTTPRoute never reads `/grpc`, a GRPCRoute never `/http`). */
export function retryKeysOf(route: IndexedObject): readonly string[] {
  if (isGrpcRoute(route)) return GRPC_RETRY_KEYS;
  if (isHttpRoute(route)) return HTTP_RETRY_KEYS;
  return NO_KEYS;
}

/** Which of `keys` the object's annotations have, in the order of `keys`. Runs for every Service and route, so it allocates only on a hit. */
export function presentKeys(obj: IndexedObject | undefined, keys: readonly string[]): readonly string[] {
  const annotations = obj?.object.metadata?.annotations;
  if (!isRecord(annotations)) return NO_KEYS;
  let present: string[] | undefined;
  for (const key of keys) {
    // textOf's reading: only text (or null, read as empty) is an annotation value Kubernetes accepts.
    if (textOf(annotations, key) !== undefined) (present ??= []).push(key);
  }
  return present ?? NO_KEYS;
}

/**
 * The retry keys that make a retry block, as parse_http_retry / parse_grpc_retry read them: a limit of 0 and a zero
 * timeout are dropped (`filter(|v| *v != 0)`), and a block with nothing left is no block at all, so the parent's
 * settings still apply. A value that does not parse stays: it fails the whole route (LKD-RETRY-002).
 */
export function retryBlockKeys(obj: IndexedObject | undefined, keys: readonly string[]): readonly string[] {
  const present = presentKeys(obj, keys);
  if (present.length === 0) return present;
  const annotations = annotationsOf(obj!.object);
  const zero = (key: string): boolean => {
    if (key === RETRY_LIMIT_ANNOTATION) {
      const limit = parseRetryLimit(textOf(annotations, key));
      return limit.ok && limit.value === 0;
    }
    if (key === RETRY_TIMEOUT_ANNOTATION) {
      const timeout = parseLinkerdDuration(textOf(annotations, key));
      return timeout.ok && timeout.value === 0;
    }
    return false;
  };
  return present.some(zero) ? present.filter((k) => !zero(k)) : present;
}

export function describeKeys(obj: IndexedObject, keys: readonly string[]): string {
  const annotations = annotationsOf(obj.object);
  return keys.map((k) => `${k}=${JSON.stringify(textOf(annotations, k))}`).join(', ');
}

export interface RetrySettings {
  /** Where the settings come from: the route itself, or its parent Service or EgressNetwork. */
  readonly source: IndexedObject;
  readonly keys: readonly string[];
  /** Attempts after the first; Linkerd uses 1 when unset or 0. */
  readonly limit: number;
  /** Per-attempt timeout in ms, when set and non-zero. */
  readonly timeoutMs?: number;
}

/** Reads the retry settings `keys` of `source` define (unparseable values fall back to Linkerd's defaults). */
export function retrySettingsOf(source: IndexedObject, keys: readonly string[]): RetrySettings {
  const annotations = annotationsOf(source.object);
  const limit = parseRetryLimit(textOf(annotations, RETRY_LIMIT_ANNOTATION));
  const timeout = parseLinkerdDuration(textOf(annotations, RETRY_TIMEOUT_ANNOTATION));
  return {
    source,
    keys,
    limit: limit.ok && limit.value > 0 ? limit.value : 1,
    timeoutMs: keys.includes(RETRY_TIMEOUT_ANNOTATION) && timeout.ok && timeout.value > 0 ? timeout.value : undefined,
  };
}

/** A parent whose annotations a route inherits: a Service or an EgressNetwork, as the output or inventory has it. */
export interface RetryParent {
  readonly position: number;
  /** `Service ns/name` or `EgressNetwork ns/name`, for messages. */
  readonly label: string;
  readonly object?: IndexedObject;
}

/** A route's Service and EgressNetwork parents, in `spec.parentRefs` order; resolved once per route and index. */
export const retryParents: (route: IndexedObject, index: MeshIndex) => readonly RetryParent[] = perKeyOfIndex(resolveRetryParents);

function resolveRetryParents(route: IndexedObject, index: MeshIndex): RetryParent[] {
  const services = serviceParents(route, index).map((p) => ({ position: p.position, label: `Service ${p.key}`, object: p.service }));
  const networks = egressNetworkParents(route, index);
  if (networks.length === 0) return services;
  const all = [...services, ...networks.map((p) => ({ position: p.position, label: `EgressNetwork ${p.namespace}/${p.name}`, object: p.network }))];
  return all.sort((a, b) => a.position - b.position);
}

/** The first parent that carries retry keys of the route's kind. */
function inheritedFrom(route: IndexedObject, parents: readonly RetryParent[]): { source: IndexedObject; keys: readonly string[] } | undefined {
  const kindKeys = retryKeysOf(route);
  for (const parent of parents) {
    const keys = retryBlockKeys(parent.object, kindKeys);
    // A parent's block with an unreadable value is dropped (its retry is unset), not passed on.
    if (parent.object && keys.length > 0 && annotationsRead(parent.object, kindKeys)) return { source: parent.object, keys };
  }
  return undefined;
}

/**
 * The retry settings Linkerd applies to a route with a Service or EgressNetwork parent, or undefined when it does not
 * retry. Two retry rules ask for every route's settings, so an index's routes resolve once.
 */
export const effectiveRetry: (route: IndexedObject, index: MeshIndex) => RetrySettings | undefined = perKeyOfIndex(resolveRetry);

function resolveRetry(route: IndexedObject, index: MeshIndex): RetrySettings | undefined {
  const parents = retryParents(route, index);
  // A route with an unreadable retry or timeout annotation fails conversion and is skipped whole: nothing retries.
  if (parents.length === 0 || !annotationsRead(route, [...retryKeysOf(route), ...TIMEOUT_ANNOTATIONS])) return undefined;
  const own = retryBlockKeys(route, retryKeysOf(route));
  if (own.length > 0) return retrySettingsOf(route, own);
  const inherited = inheritedFrom(route, parents);
  return inherited ? retrySettingsOf(inherited.source, inherited.keys) : undefined;
}

export interface RequestTimeout {
  readonly ms: number;
  /** Where it is set, for messages. */
  readonly source: string;
}

function annotationTimeout(obj: IndexedObject, label: string): RequestTimeout | undefined {
  const parsed = parseLinkerdDuration(annotationOf(obj.object, TIMEOUT_REQUEST_ANNOTATION));
  return parsed.ok ? { ms: parsed.value, source: `${TIMEOUT_REQUEST_ANNOTATION} on ${label}` } : undefined;
}

/**
 * `rules[r].timeouts.request` as the outbound index reads it, in ms (index/http.rs convert_gateway_rule with Linkerd's
 * `parse_duration`, convert_linkerd_rule with `K8sDuration`); undefined when unset or unreadable.
 */
function ruleRequestMs(route: IndexedObject, r: number): number | undefined {
  const rule = rules(route)[r];
  if (!isHttpRoute(route) || !isRecord(rule?.timeouts) || rule.timeouts.request === undefined) return undefined;
  if (isGatewayHttpRoute(route)) {
    const parsed = parseLinkerdDuration(rule.timeouts.request);
    return parsed.ok ? parsed.value : undefined;
  }
  const parsed = parseK8sDuration(rule.timeouts.request);
  return parsed.ok && !parsed.value.negative ? parsed.value.ms : undefined;
}

function ruleTimeout(route: IndexedObject, r: number): RequestTimeout | undefined {
  const ms = ruleRequestMs(route, r);
  return ms !== undefined && ms > 0 ? { ms, source: `rules[${r}].timeouts.request` } : undefined;
}

/** `rules[r].timeouts.request` is zero: "no timeout" to Gateway API (GEP-1742), unset to Linkerd (convert_gateway_rule). */
export function ruleRequestIsZero(route: IndexedObject, r: number): boolean {
  return ruleRequestMs(route, r) === 0;
}

/** Whether rule `r` of the route ends up with any timeout of its own (which hides all of the Service's timeouts). */
export function ruleHasOwnTimeout(route: IndexedObject, r: number): boolean {
  return TIMEOUT_ANNOTATIONS.some((k) => hasAnnotation(route.object, k)) || ruleTimeout(route, r) !== undefined;
}

/** The request timeout Linkerd applies to rule `r` (0 = disabled), following its precedence order. */
export function requestTimeoutFor(route: IndexedObject, r: number, index: MeshIndex): RequestTimeout | undefined {
  if (hasAnnotation(route.object, TIMEOUT_REQUEST_ANNOTATION)) return annotationTimeout(route, 'the route');
  const fromRule = ruleTimeout(route, r);
  if (fromRule || ruleHasOwnTimeout(route, r)) return fromRule;
  for (const parent of retryParents(route, index)) {
    if (parent.object && hasAnnotation(parent.object.object, TIMEOUT_REQUEST_ANNOTATION)) return annotationTimeout(parent.object, parent.label);
  }
  return undefined;
}

/** Rule indexes to evaluate: at least one, since a route without rules still gets a default rule. */
export function ruleIndexes(route: IndexedObject): number[] {
  const count = rules(route).length;
  return count === 0 ? [0] : [...Array(count).keys()];
}

// ---------------------------------------------------------------------------------------------------------------
// Where retry.linkerd.io/* and timeout.linkerd.io/* keys appear at all

const RETRY_PREFIX = 'retry.linkerd.io/';
const TIMEOUT_PREFIX = 'timeout.linkerd.io/';

/** The objects and pod templates of this output (bare Pods aside) that carry any retry.linkerd.io/* or timeout.linkerd.io/* key. */
export interface RetryAnnotated {
  /** Object → its keys with either prefix, in annotation order; in index order. */
  readonly objects: ReadonlyMap<IndexedObject, readonly string[]>;
  /** The Services among them (as `index.own('', 'Service')` lists them): the only ones a Service check can report on. */
  readonly services: readonly IndexedObject[];
  /** The EgressNetworks among them: the outbound index reads their retry and timeout annotations as a Service's. */
  readonly egressNetworks: readonly IndexedObject[];
  /** The same for workload pod templates. */
  readonly pods: ReadonlyMap<PodTemplate, readonly string[]>;
}

/** The keys of an annotation map with either prefix (own enumerable keys, as `Object.keys` lists them); undefined when none. */
function prefixedKeys(annotations: unknown): string[] | undefined {
  if (!isRecord(annotations)) return undefined;
  let keys: string[] | undefined;
  // for-in avoids an Object.keys array per object; the own-property test keeps it to what Object.keys would list.
  for (const key in annotations) {
    if ((key.startsWith(RETRY_PREFIX) || key.startsWith(TIMEOUT_PREFIX)) && hasOwn(annotations, key)) {
      (keys ??= []).push(key);
    }
  }
  return keys;
}

/**
 * Several retry rules look for these keys on every object and pod template, and almost none carry them: one scan per
 * index finds the few that do.
 */
export const retryAnnotated = perIndex((index: MeshIndex): RetryAnnotated => {
  const objects = new Map<IndexedObject, readonly string[]>();
  const services: IndexedObject[] = [];
  const egressNetworks: IndexedObject[] = [];
  for (const entry of index.objects) {
    const keys = entry.inventory ? undefined : prefixedKeys(entry.object.metadata?.annotations);
    if (!keys) continue;
    objects.set(entry, keys);
    if (entry.group === '' && entry.id.kind === 'Service') services.push(entry);
    if (entry.group === POLICY_GROUP && entry.id.kind === 'EgressNetwork') egressNetworks.push(entry);
  }
  const pods = new Map<PodTemplate, readonly string[]>();
  for (const pod of index.podTemplates) {
    const keys = pod.owner.inventory || pod.owner.id.kind === 'Pod' ? undefined : prefixedKeys(pod.annotations);
    if (keys) pods.set(pod, keys);
  }
  return { objects, services, egressNetworks, pods };
});
