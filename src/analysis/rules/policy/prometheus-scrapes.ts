import { Severity } from '../../finding';
import { vizPrometheusNamespaces } from '../../model/chart-objects';
import { proxyAdminPort } from '../../model/injector/proxy-ports';
import { Injection, MeshIndex, PodTemplate } from '../../model/mesh-index';
import { workloadLabel } from '../../model/pod-templates';
import { Caller, InboundPolicy, evaluateInboundPolicy } from '../../policy';
import { Rule, RuleArea, RuleContext } from '../../rule';

/** linkerd-viz's own Prometheus: scraping is checked whenever its ServiceAccount is in the output or the inventory. */
const VIZ_PROMETHEUS = { namespace: 'linkerd-viz', serviceAccount: 'prometheus' };

interface Scraper {
  readonly namespace: string;
  readonly serviceAccount: string;
}

function scraperOf(ctx: RuleContext): Scraper | undefined {
  const declared = ctx.context.prometheusServiceAccount;
  if (declared !== undefined) {
    const [namespace, serviceAccount] = declared.split('/');
    return { namespace, serviceAccount };
  }
  if (vizInstalled(ctx.index)) return VIZ_PROMETHEUS;
  // A linkerd-viz chart delivered by Argo CD or Flux: its Prometheus runs as `prometheus` in the install's namespace.
  const [namespace] = vizPrometheusNamespaces(ctx.index);
  return namespace ? { namespace, serviceAccount: VIZ_PROMETHEUS.serviceAccount } : undefined;
}

function vizInstalled(index: MeshIndex): boolean {
  return index.serviceAccount(VIZ_PROMETHEUS.namespace, VIZ_PROMETHEUS.serviceAccount) !== undefined;
}

function checkPod(ctx: RuleContext, policy: InboundPolicy, pod: PodTemplate, scraper: Caller): void {
  const port = proxyAdminPort(pod);
  const decision = policy.portPolicy(pod, port)?.allows(scraper);
  if (!decision || decision.allowed) return;
  ctx.report(pod.owner, `${scraper.label} cannot scrape the proxy metrics of ${workloadLabel(pod)} on admin port ${port}: ${decision.reason}. `
    + 'Its metrics, dashboards and `linkerd viz stat` go blank for this workload.');
}

/** The proxy's admin port obeys the inbound policy like any other port; a move to deny silently stops metrics. */
export const prometheusScrapesRule: Rule = {
  id: 'LKD-POL-021',
  area: RuleArea.POLICY,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: where Prometheus runs and with which identity, usually deployed outside the app\'s manifests.',
    title: 'Prometheus may scrape the proxies\' admin port',
    why: 'Prometheus reads each proxy\'s metrics from its admin port (4191, named linkerd-admin). That port gets the pod\'s default '
      + 'inbound policy, or a Server\'s when one selects it: under deny, or a Server without an authorization for Prometheus, scrapes '
      + 'get 403 and metrics vanish without any error at deploy time (linkerd2#10691, #13013). Checked when linkerd-viz\'s '
      + 'Prometheus ServiceAccount (linkerd-viz/prometheus) is in the output or the inventory, when a linkerd-viz chart install '
      + '(Argo CD Application, Flux HelmRelease) with its own Prometheus is in the output, or when a Prometheus ServiceAccount is '
      + 'configured; the scraper is assumed meshed, as linkerd-viz\'s is.',
    fix: 'Authorize the scraper on the admin port: `linkerd viz allow-scrapes --namespace <ns>` writes a Server for port linkerd-admin, '
      + 'an HTTPRoute for /metrics and an AuthorizationPolicy with a MeshTLSAuthentication for the Prometheus identity.',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index.rs Pod::reindex_servers, Pod::set_default_server (the admin '
      + 'port gets a Server\'s or the default policy like any port); charts/linkerd-control-plane/values.yaml '
      + 'proxy.ports.admin 4191',
    badExample: 'kind: Namespace\nmetadata:\n  name: shop\n  annotations:\n    linkerd.io/inject: enabled\n    config.linkerd.io/default-inbound-policy: deny\n'
      + '# ... and nothing authorizes linkerd-viz/prometheus on port linkerd-admin',
    goodExample: 'kind: Server\nmetadata: {name: proxy-admin, namespace: shop}\nspec:\n  podSelector: {matchExpressions: [{key: linkerd.io/workload-ns, operator: Exists}]}\n'
      + '  port: linkerd-admin\n  proxyProtocol: HTTP/1\n# + an AuthorizationPolicy targeting it with a MeshTLSAuthentication for prometheus.linkerd-viz',
  },
  check(ctx) {
    const scraper = scraperOf(ctx);
    if (!scraper) return;
    const caller: Caller = {
      meshed: true,
      namespace: scraper.namespace,
      serviceAccount: scraper.serviceAccount,
      label: `Prometheus (ServiceAccount ${scraper.namespace}/${scraper.serviceAccount})`,
    };
    for (const pod of ctx.index.podTemplates) {
      if (pod.owner.inventory || pod.injection !== Injection.ENABLED) continue;
      checkPod(ctx, evaluateInboundPolicy(ctx.index, ctx.context), pod, caller);
    }
  },
};
