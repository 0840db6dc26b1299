import { isBalancerKey, parseBalancerBool, parseFailureAccrual, parseLoadBiaser } from '../../../core/balancer-annotations';
import { Parsed } from '../../../core/linkerd-grammar';
import { BALANCER_KEYS, FAILURE_ACCRUAL, HONOR_RETRY_AFTER, PENALIZE_FAILURES, SUCCESS_RATE_PREFIX, POLICY_GROUP } from '../../../core/vocabulary';
import { isRecord } from '../../../util/json';
import { Severity } from '../../finding';
import { annotationsOf } from '../../model/manifest';
import { IndexedObject } from '../../model/mesh-index';
import { Rule, RuleArea, RuleContext } from '../../rule';

/** The objects the outbound index reads these annotations from. */
function readsBalancerKeys(entry: IndexedObject): boolean {
  return (entry.group === '' && entry.id.kind === 'Service') || (entry.group === POLICY_GROUP && entry.id.kind === 'EgressNetwork');
}

/** The balancer keys of an annotation map; undefined (nothing allocated) for the many objects without one. */
function balancerKeysOf(annotations: Record<string, unknown>): string[] | undefined {
  let keys: string[] | undefined;
  for (const key in annotations) if (isBalancerKey(key)) (keys ??= []).push(key);
  return keys;
}

const successRateKeys = (keys: string[]) => keys.filter((k) => k.startsWith(SUCCESS_RATE_PREFIX));

/** What the controller logs and drops: each parse that fails costs that whole block. Whether accrual is configured. */
function checkParses(ctx: RuleContext, entry: IndexedObject, annotations: Record<string, unknown>, honor: Parsed<boolean>): boolean {
  const kind = entry.id.kind;
  const accrual = parseFailureAccrual(annotations);
  if (!accrual.ok) {
    ctx.report(entry, `${accrual.reason}: Linkerd logs "Failed to parse accrual config" and this ${kind} gets no failure accrual at all `
      + '(no circuit breaking; every other balancer setting of it still applies).');
  }
  if (kind === 'Service') {
    const biaser = parseLoadBiaser(annotations);
    if (!biaser.ok) ctx.report(entry, `${biaser.reason}: Linkerd logs "Failed to parse load biaser config" and this Service gets no load biaser.`);
  }
  if (!honor.ok) ctx.report(entry, `${honor.reason}: Linkerd logs it and leaves Retry-After unhonoured.`);
  return accrual.ok && accrual.value !== undefined;
}

/** Settings that parse but do nothing where they are (the controller notes them at debug level only). */
function checkInert(ctx: RuleContext, entry: IndexedObject, annotations: Record<string, unknown>, keys: string[], hasAccrual: boolean,
  honor: Parsed<boolean>): void {
  const warn = (message: string) => ctx.report(entry, message, { severity: Severity.WARNING });
  const mode = annotations[FAILURE_ACCRUAL];
  const successRate = successRateKeys(keys);
  if (successRate.length > 0 && mode !== 'unified') {
    warn(`${successRate.join(', ')} ${successRate.length === 1 ? 'applies' : 'apply'} only under ${FAILURE_ACCRUAL}: unified, `
      + `and this ${entry.id.kind} ${mode === undefined ? 'sets no mode' : `sets ${JSON.stringify(mode)}`}, so success-rate circuit breaking is off.`);
  }
  if (honor.ok && honor.value && !hasAccrual) {
    warn(`${HONOR_RETRY_AFTER} is on, but it configures the failure-accrual backoff, and this ${entry.id.kind} has no failure accrual.`);
  }
  const penalize = parseBalancerBool(annotations, PENALIZE_FAILURES);
  if (entry.id.kind === 'EgressNetwork' && penalize.ok && penalize.value) {
    warn(`${PENALIZE_FAILURES} has no effect on an EgressNetwork: its default backend forwards without a balancer, and `
      + 'Service-backed routes drop the penalty.');
  }
}

/** Typos in either family: the key is stored and never read. */
function checkUnknownKeys(ctx: RuleContext, entry: IndexedObject, keys: string[], where: string): void {
  for (const key of keys) {
    if (BALANCER_KEYS.includes(key)) continue;
    ctx.report(entry, `${where}annotation ${key} is not a key Linkerd 2.20 reads, so it is ignored; the keys are ${BALANCER_KEYS.join(', ')}.`,
      { severity: Severity.WARNING, fix: 'Use one of the keys Linkerd reads, spelled as listed.' });
  }
}

/** The circuit-breaking and load-biasing settings of 2.20: a value the controller cannot read drops the whole block. */
export const failureAccrual: Rule = {
  id: 'LKD-RETRY-007',
  area: RuleArea.RETRY,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Ignored: policy-controller/k8s/index/src/outbound/index.rs parse_accrual_config drops a block it cannot '
      + 'parse. Keys on objects that may be read by other tooling are warnings.',
    title: 'balancer.linkerd.io and balancer.alpha.linkerd.io annotations parse, on the objects that read them',
    why: 'Linkerd 2.20 reads failure accrual (circuit breaking: `balancer.linkerd.io/failure-accrual` consecutive or unified, '
      + 'with its consecutive and success-rate parameters), the load biaser (`penalize-failures`) and the Retry-After opt-in '
      + 'from Services and EgressNetworks only. No webhook checks them: when one value of a block cannot be read, the policy '
      + 'controller logs a warning and configures none of that block, so the Service runs without circuit breaking and nothing '
      + 'else says so. Success-rate keys outside unified mode, Retry-After without a mode, penalize-failures on an EgressNetwork '
      + 'and misspelt keys do nothing (warnings).',
    fix: 'Write the values Linkerd reads: mode "consecutive" or "unified", whole numbers for max-failures and min-requests, '
      + 'one-unit durations ("30s"), min-penalty <= max-penalty, jitter 0-100, threshold 0-1, booleans "true"/"false"; '
      + 'and put the annotations on the Service (or EgressNetwork).',
    linkerdSource: 'policy-controller/k8s/index/src/outbound/index.rs parse_accrual_config, parse_consecutive_params, '
      + 'parse_success_rate_params, parse_load_biaser_config, parse_bool_annotation, Index::apply for Service and for '
      + 'EgressNetwork; policy-controller/core/src/outbound.rs (defaults)',
    badExample: 'kind: Service\nmetadata:\n  annotations:\n    balancer.linkerd.io/failure-accrual: Consecutive\n'
      + '    balancer.linkerd.io/failure-accrual-consecutive-max-penalty: 1m30s',
    goodExample: 'kind: Service\nmetadata:\n  annotations:\n    balancer.linkerd.io/failure-accrual: consecutive\n'
      + '    balancer.linkerd.io/failure-accrual-consecutive-max-penalty: 90s',
  },
  check(ctx) {
    for (const entry of ctx.index.objects) {
      // Most objects have no annotations at all: ruled out before an empty map is made for each.
      if (entry.inventory || !isRecord(entry.object.metadata?.annotations)) continue;
      const annotations = annotationsOf(entry.object);
      const keys = balancerKeysOf(annotations);
      if (!keys) continue;
      if (!readsBalancerKeys(entry)) {
        ctx.report(entry, `annotation(s) ${keys.join(', ')} have no effect on a ${entry.id.kind}: Linkerd reads them from Services and `
          + 'EgressNetworks only.', { severity: Severity.WARNING, fix: 'Move them to the Service (or EgressNetwork) the traffic goes to.' });
        continue;
      }
      checkUnknownKeys(ctx, entry, keys, '');
      const honor = parseBalancerBool(annotations, HONOR_RETRY_AFTER);
      const hasAccrual = checkParses(ctx, entry, annotations, honor);
      checkInert(ctx, entry, annotations, keys, hasAccrual, honor);
    }
    for (const pod of ctx.index.podTemplates) {
      // A Pod's own annotations were judged with the objects above.
      if (pod.owner.inventory || pod.owner.id.kind === 'Pod') continue;
      const keys = balancerKeysOf(pod.annotations);
      if (!keys) continue;
      ctx.report(pod.owner, `pod template annotation(s) ${keys.join(', ')} have no effect: Linkerd reads them from Services and `
        + 'EgressNetworks only.', { severity: Severity.WARNING, fix: 'Move them to the Service (or EgressNetwork) the traffic goes to.' });
    }
  },
};
