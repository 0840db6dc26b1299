import { DEFAULT_POLICY_ANNOTATION, POLICY_GROUP } from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { isKnownDefaultPolicy } from '../../model/inbound/default-policy';
import { PROXY_PROTOCOLS } from '../../model/inbound/servers';
import { annotationOf, textOf } from '../../model/manifest';
import { IndexedObject } from '../../model/mesh-index';
import { specOf } from '../../model/objects';
import { ownPodTemplates } from '../../model/pod-templates';
import { DEFAULT_INBOUND_POLICIES } from '../../options';
import { Rule, RuleContext, RuleArea } from '../../rule';

const ALLOWED = DEFAULT_INBOUND_POLICIES.join(', ');

function caseHint(value: unknown, allowed: readonly string[]): string {
  const near = typeof value === 'string' ? allowed.find((a) => a.toLowerCase() === value.toLowerCase()) : undefined;
  return near ? ` (values are case-sensitive: write "${near}")` : '';
}

function checkAnnotation(ctx: RuleContext, subject: IndexedObject, value: string | undefined, where: string): void {
  if (value === undefined || isKnownDefaultPolicy(value)) return;
  ctx.report(subject, `${where} ${DEFAULT_POLICY_ANNOTATION} is ${JSON.stringify(value)}, not one of ${ALLOWED}${caseHint(value, DEFAULT_INBOUND_POLICIES)}; `
    + 'the policy controller only logs this (workload.rs Settings::from_metadata) and the cluster\'s default applies instead.');
}

function checkServer(ctx: RuleContext, server: IndexedObject): void {
  const spec = specOf(server);
  if (spec.accessPolicy !== undefined && !isKnownDefaultPolicy(spec.accessPolicy)) {
    ctx.report(server, `spec.accessPolicy ${JSON.stringify(spec.accessPolicy)} is not one of ${ALLOWED}${caseHint(spec.accessPolicy, DEFAULT_INBOUND_POLICIES)}; the webhook rejects the Server.`, { effect: FindingEffect.REJECTED });
  }
  if (spec.proxyProtocol !== undefined && !PROXY_PROTOCOLS.includes(spec.proxyProtocol)) {
    ctx.report(server, `spec.proxyProtocol ${JSON.stringify(spec.proxyProtocol)} is not one of ${PROXY_PROTOCOLS.join(', ')}`
      + `${caseHint(spec.proxyProtocol, PROXY_PROTOCOLS)}; the webhook rejects the Server.`, { effect: FindingEffect.REJECTED });
  }
}

/** Enumerated policy values: default-inbound-policy annotations, Server.accessPolicy/proxyProtocol, EgressNetwork.trafficPolicy. */
export const policyValuesRule: Rule = {
  id: 'LKD-POL-012',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED],
  doc: {
    certainty: 'Rejected: policy-controller/runtime/src/admission.rs Validate<ServerSpec> refuses the value; Ignored: a bad '
      + 'default-inbound-policy annotation is only logged (defaults.rs DefaultPolicy::from_str).',
    title: 'Default-policy, accessPolicy, proxyProtocol and trafficPolicy values are in their allowed sets',
    why: 'Server.accessPolicy and proxyProtocol and EgressNetwork.trafficPolicy outside their enums are rejected by the webhook. '
      + 'A bad config.linkerd.io/default-inbound-policy annotation is worse: the policy controller only logs it, so the workload silently '
      + 'keeps a different (often all-unauthenticated) default.',
    fix: `Use one of ${ALLOWED}; proxyProtocol one of ${PROXY_PROTOCOLS.join(', ')}; trafficPolicy Allow or Deny.`,
    linkerdSource: 'policy-controller/runtime/src/admission.rs Validate<ServerSpec>::validate (accessPolicy), '
      + 'Admission::admit_spec (specs that do not parse are denied); policy-controller/k8s/index/src/defaults.rs '
      + 'DefaultPolicy::from_str; policy-controller/k8s/index/src/inbound/workload.rs Settings::from_metadata, '
      + 'default_policy',
    badExample: 'annotations:\n  config.linkerd.io/default-inbound-policy: authenticated',
    goodExample: 'annotations:\n  config.linkerd.io/default-inbound-policy: all-authenticated',
  },
  check(ctx) {
    for (const ns of ctx.index.own('', 'Namespace')) {
      checkAnnotation(ctx, ns, annotationOf(ns.object, DEFAULT_POLICY_ANNOTATION), 'annotation');
    }
    for (const pod of ownPodTemplates(ctx.index)) {
      const where = pod.owner.id.kind === 'Pod' ? 'annotation' : 'pod template annotation';
      checkAnnotation(ctx, pod.owner, textOf(pod.annotations, DEFAULT_POLICY_ANNOTATION), where);
    }
    for (const server of ctx.index.own(POLICY_GROUP, 'Server')) checkServer(ctx, server);
    for (const egress of ctx.index.own(POLICY_GROUP, 'EgressNetwork')) {
      const value = specOf(egress).trafficPolicy;
      if (value !== 'Allow' && value !== 'Deny') {
        ctx.report(egress, `spec.trafficPolicy ${JSON.stringify(value)} must be Allow or Deny${caseHint(value, ['Allow', 'Deny'])}.`, { effect: FindingEffect.REJECTED });
      }
    }
  },
};
