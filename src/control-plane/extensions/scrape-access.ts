/**
 * What `linkerd viz allow-scrapes --namespace <ns>` writes (viz/cmd/allow-scrapes.go at version-2.20), as constructs:
 * a Server for every meshed pod's admin port, HTTPRoutes for /metrics and the probes, and AuthorizationPolicies letting
 * viz's Prometheus scrape and the kubelet probe. Generate it for every namespace that moves to a deny default.
 */
import { ApiObject } from 'cdk8s';
import { Construct } from 'constructs';
import { LinkerdViz } from './viz';
import { registerChecks } from '../../checks/register';
import { InputRule, check } from '../../core/errors';
import { validateLabelName } from '../../core/names';

/** Props for VizScrapeAccess. */
export interface VizScrapeAccessProps {
  /** The namespace whose meshed pods Prometheus must keep scraping. */
  readonly namespace: string;
  /**
   * The viz extension (its namespace holds the Prometheus ServiceAccount and the `kubelet` NetworkAuthentication).
   * @default - viz in namespace `vizNamespace`
   */
  readonly viz?: LinkerdViz;
  /**
   * Namespace of linkerd-viz when `viz` is not given.
   * @default "linkerd-viz"
   */
  readonly vizNamespace?: string;
}

const POLICY_V1ALPHA1 = 'policy.linkerd.io/v1alpha1';
/** The current versions (allow-scrapes itself still writes HTTPRoute v1alpha1; v1beta3 has the same fields used here). */
const SERVER_VERSION = 'policy.linkerd.io/v1beta3';
const ROUTE_VERSION = 'policy.linkerd.io/v1beta3';

/** The Server, HTTPRoutes and AuthorizationPolicies of `linkerd viz allow-scrapes` for one namespace. */
export class VizScrapeAccess extends Construct {
  /** The namespace the objects are in. */
  public readonly namespace: string;

  constructor(scope: Construct, id: string, props: VizScrapeAccessProps) {
    super(scope, id);
    registerChecks(this);
    check(props.viz === undefined || props.viz instanceof LinkerdViz, this, InputRule.REQUIRED, 'viz is not a LinkerdViz.', 'Pass the LinkerdViz construct, or vizNamespace.');
    check(props.viz === undefined || props.vizNamespace === undefined, this, InputRule.CONFLICT, 'both viz and vizNamespace are given.', 'Pass one of them.');
    const ns = validateLabelName(this, props.namespace, 'namespace');
    const vizNs = props.viz?.namespace ?? validateLabelName(this, props.vizNamespace ?? 'linkerd-viz', 'vizNamespace');
    check(props.viz === undefined || props.viz.prometheusServiceAccount !== undefined, this, InputRule.CONFLICT,
      'the viz extension uses an external Prometheus, whose identity allow-scrapes cannot name.',
      'Authorize your Prometheus\' ServiceAccount on port linkerd-admin with a Server and an AuthorizationPolicy of your own.');
    this.namespace = ns;
    const meta = (name: string) => ({ name, namespace: ns, labels: { 'linkerd.io/extension': 'viz' } });
    const serverRef = { name: 'proxy-admin', kind: 'Server', group: 'policy.linkerd.io' };
    new ApiObject(this, 'Server', {
      apiVersion: SERVER_VERSION,
      kind: 'Server',
      metadata: meta('proxy-admin'),
      spec: {
        podSelector: { matchExpressions: [{ key: 'linkerd.io/control-plane-ns', operator: 'Exists' }] },
        port: 'linkerd-admin',
        proxyProtocol: 'HTTP/1',
      },
    });
    new ApiObject(this, 'MetricsRoute', {
      apiVersion: ROUTE_VERSION,
      kind: 'HTTPRoute',
      metadata: meta('proxy-metrics'),
      spec: { parentRefs: [serverRef], rules: [{ matches: [{ path: { value: '/metrics' } }] }] },
    });
    new ApiObject(this, 'ProbesRoute', {
      apiVersion: ROUTE_VERSION,
      kind: 'HTTPRoute',
      metadata: meta('proxy-probes'),
      spec: { parentRefs: [serverRef], rules: [{ matches: [{ path: { value: '/live' } }, { path: { value: '/ready' } }] }] },
    });
    new ApiObject(this, 'ScrapePolicy', {
      apiVersion: POLICY_V1ALPHA1,
      kind: 'AuthorizationPolicy',
      metadata: meta('prometheus-scrape'),
      spec: {
        targetRef: { group: 'policy.linkerd.io', kind: 'HTTPRoute', name: 'proxy-metrics' },
        requiredAuthenticationRefs: [{ kind: 'ServiceAccount', name: 'prometheus', namespace: vizNs }],
      },
    });
    new ApiObject(this, 'ProbesPolicy', {
      apiVersion: POLICY_V1ALPHA1,
      kind: 'AuthorizationPolicy',
      metadata: meta('proxy-probes'),
      spec: {
        targetRef: { group: 'policy.linkerd.io', kind: 'HTTPRoute', name: 'proxy-probes' },
        requiredAuthenticationRefs: [{ kind: 'NetworkAuthentication', group: 'policy.linkerd.io', name: 'kubelet', namespace: vizNs }],
      },
    });
    if (props.viz) this.node.addDependency(props.viz);
  }
}
