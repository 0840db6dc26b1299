/**
 * L2 recipes: for one input object, the construct call that should rebuild it. A recipe only proposes; the generator
 * builds the construct in-process and keeps the recipe only when the result equals the input object exactly.
 */
import * as kplus from 'cdk8s-plus-28';
import { Construct } from 'constructs';
import { Expr, arr, call, lit, obj, ref } from './expr';
import { DefaultInboundPolicy, INJECT_ANNOTATION } from '../../core/default-inbound-policy';
import { lookupTable } from '../../core/own-keys';
import { DEFAULT_POLICY_ANNOTATION as DEFAULT_INBOUND_POLICY_ANNOTATION } from '../../core/vocabulary';
import { MeshTlsAuthentication, Network, NetworkAuthentication } from '../../policy/authentication';
import { Authentication, AuthorizationPolicy, AuthorizationTarget } from '../../policy/authorization-policy';
import { PodSelection } from '../../policy/pod-selection';
import { ProxyProtocol, Server, ServerPort } from '../../policy/server';
import { GrpcRoute } from '../../routing/grpc-route';
import { HttpRoute } from '../../routing/http-route';
import { HttpMethod, PathMatch } from '../../routing/matches';
import { RouteBackend } from '../../routing/route-backend';
import { ServiceReference } from '../../routing/service-reference';
import { isRecord } from '../../util/json';
import { MeshedNamespace } from '../../workloads/meshed-namespace';

const POLICY = 'policy.linkerd.io';

/** An L2 construct built by the generated code as `new <className>(scope, id, props)`. */
export interface Recipe {
  readonly className: string;
  readonly construct: new (scope: Construct, id: string, props: any) => Construct;
  readonly props: Expr;
  /** Names imported from cdk8s-linkerd by the rendered props. */
  readonly imports: readonly string[];
  /** Whether the rendered props use `kplus` (cdk8s-plus-28). */
  readonly usesKplus?: boolean;
}

/** What recipes may refer to: L2 authentications already generated, by `namespace/Kind/name`. */
export interface RecipeContext {
  readonly scope: Construct;
  readonly authentications: ReadonlyMap<string, { readonly variable: string; readonly instance: Construct }>;
}

type Obj = Record<string, any>;
const isObject = (v: unknown): v is Obj => isRecord(v);
const keysWithin = (o: Obj, allowed: readonly string[]) => Object.keys(o).every((k) => allowed.includes(k));
const isStringMap = (v: unknown): v is Record<string, string> => isObject(v) && Object.values(v).every((x) => typeof x === 'string');

function enumMember<T extends Record<string, string>>(enumName: string, values: T, value: unknown): Expr | undefined {
  const entry = Object.entries(values).find(([, v]) => v === value);
  return entry ? ref(`${enumName}.${entry[0]}`, entry[1]) : undefined;
}

/** name, namespace, labels, annotations: the metadata every L2 construct takes; anything else is not rebuilt by one. */
function metadataProps(o: Obj): Array<[string, Expr]> | undefined {
  const m = o.metadata;
  if (!isObject(m) || typeof m.name !== 'string' || !keysWithin(m, ['name', 'namespace', 'labels', 'annotations'])) return undefined;
  if (m.namespace !== undefined && typeof m.namespace !== 'string') return undefined;
  if ((m.labels !== undefined && !isStringMap(m.labels)) || (m.annotations !== undefined && !isStringMap(m.annotations))) return undefined;
  const props: Array<[string, Expr]> = [['name', lit(m.name)]];
  if (m.namespace !== undefined) props.push(['namespace', lit(m.namespace)]);
  if (m.labels !== undefined) props.push(['labels', lit(m.labels)]);
  if (m.annotations !== undefined) props.push(['annotations', lit(m.annotations)]);
  return props;
}

function podSelection(selector: unknown): Expr | undefined {
  if (!isObject(selector) || !keysWithin(selector, ['matchLabels', 'matchExpressions'])) return undefined;
  const labels = selector.matchLabels;
  if (labels !== undefined && !isStringMap(labels)) return undefined;
  const expressions = selector.matchExpressions;
  if (expressions !== undefined) {
    if (!Array.isArray(expressions) || !expressions.every((e) => isObject(e) && keysWithin(e, ['key', 'operator', 'values']))) return undefined;
    const args = [lit(expressions)];
    if (labels !== undefined) args.push(lit(labels));
    return call('PodSelection.expressions', PodSelection.expressions, ...args);
  }
  if (labels === undefined) return undefined;
  const keys = Object.keys(labels);
  if (keys.length === 1 && keys[0] === 'app.kubernetes.io/name') return call('PodSelection.app', PodSelection.app, lit(labels[keys[0]]));
  return call('PodSelection.labels', PodSelection.labels, lit(labels));
}

function server(o: Obj): Recipe | undefined {
  const meta = metadataProps(o);
  const spec = o.spec;
  if (!meta || !isObject(spec) || !keysWithin(spec, ['podSelector', 'port', 'proxyProtocol', 'accessPolicy'])) return undefined;
  const selector = podSelection(spec.podSelector);
  const port = typeof spec.port === 'number' ? call('ServerPort.number', ServerPort.number, lit(spec.port))
    : typeof spec.port === 'string' ? call('ServerPort.name', ServerPort.name, lit(spec.port)) : undefined;
  const protocol = spec.proxyProtocol === undefined ? undefined : enumMember('ProxyProtocol', ProxyProtocol, spec.proxyProtocol);
  const access = spec.accessPolicy === undefined ? undefined : enumMember('DefaultInboundPolicy', DefaultInboundPolicy, spec.accessPolicy);
  if (!selector || !port || (spec.proxyProtocol !== undefined && !protocol) || (spec.accessPolicy !== undefined && !access)) return undefined;
  const imports = ['Server', 'PodSelection', 'ServerPort', ...(protocol ? ['ProxyProtocol'] : []), ...(access ? ['DefaultInboundPolicy'] : [])];
  return {
    className: 'Server',
    construct: Server,
    imports,
    props: obj([...meta, ['selector', selector], ['port', port], ['proxyProtocol', protocol], ['accessPolicy', access]]),
  };
}

function meshTlsAuthentication(o: Obj, ctx: RecipeContext): Recipe | undefined {
  const meta = metadataProps(o);
  const spec = o.spec;
  if (!meta || !isObject(spec) || Object.keys(spec).length !== 1) return undefined;
  if (Array.isArray(spec.identities) && spec.identities.every((i: unknown) => typeof i === 'string')) {
    return { className: 'MeshTlsAuthentication', construct: MeshTlsAuthentication, imports: ['MeshTlsAuthentication'], props: obj([...meta, ['identities', lit(spec.identities)]]) };
  }
  const refs = spec.identityRefs;
  if (!Array.isArray(refs) || refs.length === 0 || !refs.every((r) => isObject(r) && keysWithin(r, ['kind', 'name', 'namespace']))) return undefined;
  const accounts = refs.filter((r) => r.kind === 'ServiceAccount');
  const namespaces = refs.filter((r) => r.kind === 'Namespace');
  if (accounts.length + namespaces.length !== refs.length || namespaces.some((r) => r.namespace !== undefined)) return undefined;
  // cdk8s-plus's reference to an existing ServiceAccount; the construct ID only has to be unique in the scope.
  const withScope = accounts.map((r, i) => call('kplus.ServiceAccount.fromServiceAccountName', kplus.ServiceAccount.fromServiceAccountName,
    ref('scope', ctx.scope), lit(`ServiceAccountRef-${o.metadata.namespace ?? ''}-${o.metadata.name}-${i}`), lit(r.name),
    ...(r.namespace === undefined ? [] : [lit({ namespaceName: r.namespace })])));
  return {
    className: 'MeshTlsAuthentication',
    construct: MeshTlsAuthentication,
    imports: ['MeshTlsAuthentication'],
    usesKplus: accounts.length > 0,
    props: obj([...meta,
      ['serviceAccounts', accounts.length > 0 ? arr(withScope) : undefined],
      ['namespaces', namespaces.length > 0 ? lit(namespaces.map((r) => r.name)) : undefined]]),
  };
}

function networkAuthentication(o: Obj): Recipe | undefined {
  const meta = metadataProps(o);
  const spec = o.spec;
  if (!meta || !isObject(spec) || !keysWithin(spec, ['networks']) || !Array.isArray(spec.networks) || spec.networks.length === 0) return undefined;
  if (!spec.networks.every((n: unknown) => isObject(n) && typeof n.cidr === 'string' && keysWithin(n, ['cidr', 'except']))) return undefined;
  const networks = spec.networks.map((n: Obj) => (n.except === undefined
    ? call('Network.cidr', Network.cidr, lit(n.cidr))
    : call('Network.cidr', Network.cidr, lit(n.cidr), lit(n.except))));
  return { className: 'NetworkAuthentication', construct: NetworkAuthentication, imports: ['NetworkAuthentication', 'Network'], props: obj([...meta, ['networks', arr(networks)]]) };
}

function target(ref0: unknown): Expr | undefined {
  if (!isObject(ref0) || !keysWithin(ref0, ['group', 'kind', 'name']) || typeof ref0.name !== 'string') return undefined;
  const named = (code: string, value: unknown) => ref(code, value);
  if (ref0.group === POLICY && ref0.kind === 'Server') {
    return call('AuthorizationTarget.server', AuthorizationTarget.server, call('Server.fromServerName', Server.fromServerName, lit(ref0.name)));
  }
  if (ref0.group === 'gateway.networking.k8s.io' && (ref0.kind === 'HTTPRoute' || ref0.kind === 'GRPCRoute')) {
    const method = ref0.kind === 'HTTPRoute' ? 'httpRoute' : 'grpcRoute';
    return call(`AuthorizationTarget.${method}`, AuthorizationTarget[method], named(`{ name: ${JSON.stringify(ref0.name)} }`, { name: ref0.name }));
  }
  if (ref0.group === undefined && ref0.kind === 'Namespace') return call('AuthorizationTarget.namespace', AuthorizationTarget.namespace, lit(ref0.name));
  return undefined;
}

function authorizationPolicy(o: Obj, ctx: RecipeContext): Recipe | undefined {
  const meta = metadataProps(o);
  const spec = o.spec;
  if (!meta || !isObject(spec) || !keysWithin(spec, ['targetRef', 'requiredAuthenticationRefs']) || !Array.isArray(spec.requiredAuthenticationRefs)) return undefined;
  const targetExpr = target(spec.targetRef);
  if (!targetExpr) return undefined;
  const namespace = o.metadata.namespace;
  const auths: Expr[] = [];
  let usesKplus = false;
  for (const [i, r] of spec.requiredAuthenticationRefs.entries()) {
    if (!isObject(r) || !keysWithin(r, ['group', 'kind', 'name', 'namespace']) || typeof r.name !== 'string') return undefined;
    if (r.kind === 'ServiceAccount' && (r.group === undefined || r.group === '')) {
      usesKplus = true;
      auths.push(call('Authentication.serviceAccount', Authentication.serviceAccount, call('kplus.ServiceAccount.fromServiceAccountName', kplus.ServiceAccount.fromServiceAccountName,
        ref('scope', ctx.scope), lit(`ServiceAccountRef-${namespace ?? ''}-${o.metadata.name}-${i}`), lit(r.name),
        ...(r.namespace === undefined ? [] : [lit({ namespaceName: r.namespace })]))));
      continue;
    }
    if (r.group !== POLICY) return undefined;
    const known = ctx.authentications.get(`${r.namespace ?? namespace ?? ''}/${r.kind}/${r.name}`);
    if (!known) return undefined;
    const method = r.kind === 'MeshTLSAuthentication' ? 'meshTls' : r.kind === 'NetworkAuthentication' ? 'network' : undefined;
    if (!method) return undefined;
    auths.push(call(`Authentication.${method}`, Authentication[method] as any, ref(known.variable, known.instance)));
  }
  return {
    className: 'AuthorizationPolicy',
    construct: AuthorizationPolicy,
    usesKplus,
    imports: ['AuthorizationPolicy', 'AuthorizationTarget', 'Authentication', ...(spec.targetRef.kind === 'Server' ? ['Server'] : [])],
    props: obj([...meta, ['target', targetExpr], ['requiredAuthentications', arr(auths)]]),
  };
}

function meshedNamespace(o: Obj): Recipe | undefined {
  const m = o.metadata;
  if (!isObject(m) || typeof m.name !== 'string' || !keysWithin(m, ['name', 'labels', 'annotations'])) return undefined;
  const annotations = m.annotations;
  if (!isStringMap(annotations) || annotations[INJECT_ANNOTATION] !== 'enabled' || !keysWithin(annotations, [INJECT_ANNOTATION, DEFAULT_INBOUND_POLICY_ANNOTATION])) return undefined;
  const policy = annotations[DEFAULT_INBOUND_POLICY_ANNOTATION];
  const policyExpr = policy === undefined ? undefined : enumMember('DefaultInboundPolicy', DefaultInboundPolicy, policy);
  if (policy !== undefined && !policyExpr) return undefined;
  if (m.labels !== undefined && !isStringMap(m.labels)) return undefined;
  return {
    className: 'MeshedNamespace',
    construct: MeshedNamespace,
    imports: ['MeshedNamespace', ...(policyExpr ? ['DefaultInboundPolicy'] : [])],
    props: obj([['name', lit(m.name)], ['labels', m.labels === undefined ? undefined : lit(m.labels)], ['defaultInboundPolicy', policyExpr]]),
  };
}

const PATH_MATCHES = lookupTable<[string, (value: string) => PathMatch]>({
  Exact: ['PathMatch.exact', PathMatch.exact],
  PathPrefix: ['PathMatch.prefix', PathMatch.prefix],
  RegularExpression: ['PathMatch.regex', PathMatch.regex],
});

function serviceReference(name: string, namespace: unknown): Expr {
  return namespace === undefined
    ? call('ServiceReference.fromName', ServiceReference.fromName, lit(name))
    : call('ServiceReference.fromName', ServiceReference.fromName, lit(name), lit(namespace));
}

function httpMatch(m: unknown): Expr | undefined {
  if (!isObject(m) || !keysWithin(m, ['path', 'method'])) return undefined;
  let path: Expr | undefined;
  if (m.path !== undefined) {
    const p = m.path;
    const factory = isObject(p) && keysWithin(p, ['type', 'value']) && typeof p.value === 'string' ? PATH_MATCHES[p.type] : undefined;
    if (!factory) return undefined;
    path = call(factory[0], factory[1], lit(p.value));
  }
  const method = m.method === undefined ? undefined : enumMember('HttpMethod', HttpMethod, m.method);
  if (m.method !== undefined && !method) return undefined;
  return obj([['path', path], ['method', method]]);
}

function backend(b: unknown): Expr | undefined {
  if (!isObject(b) || !keysWithin(b, ['name', 'namespace', 'port', 'weight']) || typeof b.name !== 'string' || typeof b.port !== 'number') return undefined;
  if (b.weight !== undefined && typeof b.weight !== 'number') return undefined;
  return call('RouteBackend.service', RouteBackend.service, serviceReference(b.name, b.namespace),
    obj([['port', lit(b.port)], ['weight', b.weight === undefined ? undefined : lit(b.weight)]]));
}

function grpcMatch(m: unknown): Expr | undefined {
  if (!isObject(m) || !keysWithin(m, ['method'])) return undefined;
  const method = m.method;
  if (method === undefined) return obj([]);
  if (!isObject(method) || method.type !== 'Exact' || !keysWithin(method, ['type', 'service', 'method'])) return undefined;
  if ((method.service !== undefined && typeof method.service !== 'string') || (method.method !== undefined && typeof method.method !== 'string')) return undefined;
  return obj([['service', method.service === undefined ? undefined : lit(method.service)], ['method', method.method === undefined ? undefined : lit(method.method)]]);
}

/**
 * An HTTPRoute or GRPCRoute on a Service (the mesh's own kind of route): parent, matches (HTTP: path and method; gRPC:
 * service and method) and weighted backends. Retry and timeout annotations are kept as annotations.
 */
function serviceRoute(o: Obj, grpc: boolean): Recipe | undefined {
  const meta = metadataProps(o);
  const spec = o.spec;
  if (!meta || !isObject(spec) || !keysWithin(spec, ['parentRefs', 'rules']) || !Array.isArray(spec.parentRefs) || spec.parentRefs.length !== 1) return undefined;
  const parent = spec.parentRefs[0];
  if (!isObject(parent) || parent.group !== 'core' || parent.kind !== 'Service' || typeof parent.name !== 'string' || typeof parent.port !== 'number') return undefined;
  if (!keysWithin(parent, ['group', 'kind', 'name', 'namespace', 'port']) || !Array.isArray(spec.rules ?? [])) return undefined;
  const rules: Expr[] = [];
  for (const rule of spec.rules ?? []) {
    if (!isObject(rule) || !keysWithin(rule, ['matches', 'backendRefs'])) return undefined;
    if (!Array.isArray(rule.matches ?? []) || !Array.isArray(rule.backendRefs ?? [])) return undefined;
    const matches = (rule.matches ?? []).map(grpc ? grpcMatch : httpMatch);
    const backends = (rule.backendRefs ?? []).map(backend);
    if (matches.includes(undefined) || backends.includes(undefined)) return undefined;
    rules.push(obj([['matches', rule.matches ? arr(matches) : undefined], ['backends', rule.backendRefs ? arr(backends) : undefined]]));
  }
  const matchList = (spec.rules ?? []).flatMap((r: Obj) => r.matches ?? []);
  const extra = grpc ? [] : [
    ...(matchList.some((m: Obj) => m.method !== undefined) ? ['HttpMethod'] : []),
    ...(matchList.some((m: Obj) => m.path !== undefined) ? ['PathMatch'] : []),
  ];
  const className = grpc ? 'GrpcRoute' : 'HttpRoute';
  return {
    className,
    construct: grpc ? GrpcRoute : HttpRoute,
    imports: [className, 'ServiceReference', ...((spec.rules ?? []).some((r: Obj) => (r.backendRefs ?? []).length > 0) ? ['RouteBackend'] : []), ...extra],
    props: obj([...meta, ['service', serviceReference(parent.name, parent.namespace)], ['port', lit(parent.port)], ['rules', spec.rules ? arr(rules) : undefined]]),
  };
}

/** The recipe for an object, by apiVersion and kind; undefined when no L2 construct models it. */
export function recipeFor(o: Obj, ctx: RecipeContext): Recipe | undefined {
  switch (`${o.apiVersion}/${o.kind}`) {
    case `${POLICY}/v1beta3/Server`: return server(o);
    case `${POLICY}/v1alpha1/MeshTLSAuthentication`: return meshTlsAuthentication(o, ctx);
    case `${POLICY}/v1alpha1/NetworkAuthentication`: return networkAuthentication(o);
    case `${POLICY}/v1alpha1/AuthorizationPolicy`: return authorizationPolicy(o, ctx);
    case 'v1/Namespace': return meshedNamespace(o);
    case 'gateway.networking.k8s.io/v1/HTTPRoute': return serviceRoute(o, false);
    case 'gateway.networking.k8s.io/v1/GRPCRoute': return serviceRoute(o, true);
    default: return undefined;
  }
}
