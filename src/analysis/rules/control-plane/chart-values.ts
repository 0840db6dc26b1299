import { controlPlaneValueProblems } from '../../../core/chart-values';
import { Severity } from '../../finding';
import { controlPlaneInstalls } from '../../model/installs';
import { Rule, RuleArea } from '../../rule';

/** Control-plane values the chart or its components cannot use, in installs written as manifests. */
export const controlPlaneChartValues: Rule = {
  id: 'LKD-CP-007',
  area: RuleArea.CONTROL_PLANE,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Rejected: the chart\'s templates fail on these values (charts/partials/templates/_proxy.tpl, _proxy-init.tpl '
      + '`fail`), so the release never renders. Values that render but may not suit the cluster are warnings.',
    title: 'linkerd-control-plane values are ones the chart and its components can use',
    why: 'The chart renders whatever values it is given, and some it cannot use fail only when Flux or Argo CD reconciles them, '
      + 'or later: proxy.logHTTPHeaders, proxyInit.iptablesMode, tracing without its collector and closeWaitTimeoutSecs '
      + 'without runAsRoot make a template fail, so the release does not render; clusterNetworks that Go\'s net.ParseCIDR '
      + 'cannot read (a space after a comma) make the injector refuse every pod; an unknown proxy.defaultInboundPolicy stops the '
      + 'policy controller; a pull policy other than Always, IfNotPresent or Never makes the API server refuse the pods; '
      + 'a string "false" where the chart tests a boolean is true. These are the checks the control-plane construct makes on its '
      + 'own merged values (core/chart-values.ts), made on installs written as manifests.',
    fix: 'Write the value as the message says; with this library\'s LinkerdControlPlane, use its typed options.',
    linkerdSource: 'charts/partials/templates/_proxy.tpl, charts/partials/templates/_proxy-init.tpl (fail); '
      + 'pkg/inject/inject.go GetPodPatch (net.ParseCIDR of each cluster network); '
      + 'policy-controller/k8s/index/src/defaults.rs DefaultPolicy::from_str; pkg/tls/ca.go Validity.Window',
    badExample: 'valuesObject:\n  clusterNetworks: "10.0.0.0/8, 192.168.0.0/16"\n  proxy: {logHTTPHeaders: "on"}',
    goodExample: 'valuesObject:\n  clusterNetworks: "10.0.0.0/8,192.168.0.0/16"\n  proxy: {logHTTPHeaders: "off"}',
  },
  check(ctx) {
    for (const install of controlPlaneInstalls(ctx.index)) {
      for (const problem of controlPlaneValueProblems(install.values)) {
        // A string "true" is truthy in the chart, as meant: a warning, not an error.
        ctx.report(install.subject, `${install.source}: ${problem.problem('')}`, { fix: problem.fix, ...(problem.doubtful ? { severity: Severity.WARNING } : {}) });
      }
    }
  },
};
