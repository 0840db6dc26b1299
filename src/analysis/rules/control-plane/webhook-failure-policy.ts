import { Severity } from '../../finding';
import { controlPlaneInstalls } from '../../model/installs';
import { Rule, RuleArea } from '../../rule';

/** With Ignore, every admission check silently stops whenever its controller is down. */
export const webhookFailurePolicyIgnore: Rule = {
  id: 'LKD-CP-002',
  area: RuleArea.CONTROL_PLANE,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: whether the webhooks are ever unavailable while objects are applied; with Ignore nothing fails '
      + 'until then.',
    title: 'webhookFailurePolicy is Fail, so policy validation cannot be skipped',
    why: 'The chart\'s default webhookFailurePolicy Ignore applies to the proxy injector, the ServiceProfile validator and the policy '
      + 'validator. While the destination controller is unavailable, invalid Servers, AuthorizationPolicies and routes are admitted '
      + 'unchecked, and pods start without a proxy.',
    fix: 'Set webhookFailurePolicy: WebhookFailurePolicy.FAIL (the HA profile does) and run the controllers highly available, so '
      + 'that failing closed does not block applies.',
    linkerdSource: 'charts/linkerd-control-plane/values.yaml webhookFailurePolicy (default Ignore), used by '
      + 'charts/linkerd-control-plane/templates/destination-rbac.yaml and '
      + 'charts/linkerd-control-plane/templates/proxy-injector-rbac.yaml',
    badExample: 'valuesObject:\n  webhookFailurePolicy: Ignore',
    goodExample: 'valuesObject:\n  webhookFailurePolicy: Fail',
  },
  check(ctx) {
    for (const install of controlPlaneInstalls(ctx.index)) {
      // Values files the analysis cannot read may set it (the chart's values-ha.yaml sets Fail).
      if (install.values.webhookFailurePolicy === undefined && install.unseenValues.length > 0) continue;
      const policy = install.values.webhookFailurePolicy ?? 'Ignore';
      if (policy !== 'Ignore') continue;
      const origin = install.values.webhookFailurePolicy === undefined ? ' (the chart default)' : '';
      ctx.report(install.subject, `${install.source} leaves webhookFailurePolicy at Ignore${origin}: while the policy controller is down, `
        + 'policy resources are admitted without validation and pods are created without a proxy.');
    }
  },
};
