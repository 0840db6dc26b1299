import { POLICY_GROUP } from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { claimOrder } from '../../model/inbound/servers';
import { IndexedObject } from '../../model/mesh-index';
import { missingReference } from '../../model/missing-references';
import { specOf } from '../../model/objects';
import { asRef, isCoreRef, isPolicyRef, refList, refText } from '../../model/refs';
import { Rule, RuleContext, RuleArea } from '../../rule';

function rps(value: any): unknown {
  return value && typeof value === 'object' ? value.requestsPerSecond : undefined;
}

/** Rates are u32 in the policy controller's types (k8s/api/src/policy/ratelimit_policy.rs); the CRD allows int64. */
const MAX_RATE = 4_294_967_295;

function checkRate(ctx: RuleContext, policy: IndexedObject, path: string, value: unknown, total: unknown): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value <= 0) {
    ctx.report(policy, `${path} is ${JSON.stringify(value)}; it must be a positive integer.`, { effect: FindingEffect.REJECTED });
  } else if (value > MAX_RATE) {
    ctx.report(policy, `${path} ${value} is above ${MAX_RATE}, the largest rate Linkerd reads (u32): the CRD accepts it, but the webhook `
      + 'cannot parse the spec and rejects it.', { effect: FindingEffect.REJECTED });
  } else if (typeof total === 'number' && total > 0 && value > total) {
    ctx.report(policy, `${path} ${value} exceeds total.requestsPerSecond ${total}; the webhook rejects it.`, { effect: FindingEffect.REJECTED });
  }
}

/** The Server a policy targets, as a namespace|name key, when the target is a Server at all. */
function targetKey(policy: IndexedObject): string | undefined {
  const ref = asRef(specOf(policy).targetRef);
  return isPolicyRef(ref, 'Server') ? `${policy.id.namespace}|${ref!.name}` : undefined;
}

function checkTarget(ctx: RuleContext, policy: IndexedObject): void {
  const ref = asRef(specOf(policy).targetRef);
  if (!isPolicyRef(ref, 'Server')) {
    ctx.report(policy, `spec.targetRef ${refText(ref)} must be a Server with group policy.linkerd.io; the webhook rejects anything else.`, { effect: FindingEffect.REJECTED });
  } else if (!ctx.index.get(POLICY_GROUP, 'Server', policy.id.namespace, String(ref!.name))) {
    const sure = missingReference(ctx.index, POLICY_GROUP, 'Server', policy.id.namespace ?? '', String(ref!.name));
    ctx.report(policy, `spec.targetRef names Server "${ref!.name}", which does not exist in namespace ${policy.id.namespace}${sure.hint}; `
      + 'the status becomes NoMatchingTarget and nothing is limited.', { effect: FindingEffect.IGNORED, severity: sure.severity });
  }
}

function checkRates(ctx: RuleContext, policy: IndexedObject): void {
  const spec = specOf(policy);
  const total = rps(spec.total);
  if (spec.total !== undefined) checkRate(ctx, policy, 'spec.total.requestsPerSecond', total, undefined);
  if (spec.identity !== undefined) checkRate(ctx, policy, 'spec.identity.requestsPerSecond', rps(spec.identity), total);
  refList(spec.overrides).forEach((override: any, i) => {
    checkRate(ctx, policy, `spec.overrides[${i}].requestsPerSecond`, override.requestsPerSecond, total);
    // ratelimit_policy.rs Override: client_refs has no default, so the webhook cannot parse an override without it.
    if (!Array.isArray(override.clientRefs)) {
      ctx.report(policy, `spec.overrides[${i}] has no clientRefs list; the CRD requires it and the webhook cannot parse the spec without it, so `
        + 'the policy is refused. List the ServiceAccounts the override is for.', { effect: FindingEffect.REJECTED });
    }
    refList(override.clientRefs).forEach((ref, j) => {
      if (!isCoreRef(ref, 'ServiceAccount')) {
        ctx.report(policy, `spec.overrides[${i}].clientRefs[${j}] is ${refText(ref)}; only ServiceAccount (core group) is accepted.`, { effect: FindingEffect.REJECTED });
      }
    });
  });
}

/** HTTPLocalRateLimitPolicy: a real Server target, sane rates, one policy per Server. */
export const rateLimitRule: Rule = {
  id: 'LKD-POL-014',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED, FindingEffect.IGNORED],
  doc: {
    certainty: 'Rejected: policy-controller/runtime/src/admission.rs Validate<RateLimitPolicySpec> refuses it; Ignored: only'
      + ' the oldest policy per Server is used (status index.rs update_ratelimit). A target the analysis cannot see '
      + 'is a warning or info.',
    title: 'HTTPLocalRateLimitPolicy targets an existing Server with valid rates, one per Server',
    why: 'The webhook requires a Server target, total.requestsPerSecond > 0, identity and override rates > 0 and not above '
      + 'the total, and ServiceAccount clientRefs; rates are u32, so one above 4294967295 fails to parse and is refused. Only '
      + 'the oldest policy per Server (by creation time, then name; a policy still to be applied is newer than every one '
      + 'in the cluster) is accepted; the others get RateLimitReasonAlreadyExists and silently do nothing.',
    fix: 'Target one Server per policy (merge limits into one policy), keep identity/override rates at or below the total.',
    linkerdSource: 'policy-controller/runtime/src/admission.rs Validate<RateLimitPolicySpec>::validate, parse_spec; '
      + 'policy-controller/k8s/api/src/policy/ratelimit_policy.rs (u32 rates); '
      + 'policy-controller/k8s/status/src/index.rs Index::target_ref_status, Index::update_ratelimit, Index::reconcile_ratelimits '
      + '(RateLimitReasonAlreadyExists); policy-controller/k8s/index/src/inbound/index.rs '
      + 'PolicyIndex::client_ratelimit',
    badExample: 'spec:\n  targetRef: {kind: Server, name: orders-http}\n  total: {requestsPerSecond: 0}',
    goodExample: 'spec:\n  targetRef: {group: policy.linkerd.io, kind: Server, name: orders-http}\n  total: {requestsPerSecond: 100}\n  identity: {requestsPerSecond: 20}',
  },
  check(ctx) {
    const firstByServer = new Map<string, IndexedObject>();
    for (const policy of [...ctx.index.list(POLICY_GROUP, 'HTTPLocalRateLimitPolicy')].sort(claimOrder)) {
      if (!policy.inventory) {
        checkTarget(ctx, policy);
        checkRates(ctx, policy);
      }
      const key = targetKey(policy);
      if (key === undefined) continue;
      const first = firstByServer.get(key);
      if (!first) {firstByServer.set(key, policy);} else {
        ctx.report(policy, `HTTPLocalRateLimitPolicy ${first.id.name} already targets Server ${key.split('|')[1]}; only the oldest `
        + 'is accepted and this one gets RateLimitReasonAlreadyExists. Merge the limits into one policy.', { effect: FindingEffect.IGNORED });
      }
    }
  },
};
