/**
 * LKD-RETRY-007: the balancer annotations of Linkerd 2.20 (failure accrual, load biaser, Retry-After), read by the
 * outbound index from Services and EgressNetworks (outbound/index.rs). Baseline mesh-lab, one mutation each.
 */
import { analyze } from '../../../src/analysis/engine';
import { Severity } from '../../../src/analysis/finding';
import { parseFailureAccrual } from '../../../src/core/balancer-annotations';
import { asManifests, meshLab, pick } from '../../support/mesh-fixture';

const RULE = 'LKD-RETRY-007';

function findings(serviceAnnotations: Record<string, unknown>, extra: any[] = []) {
  const objects = [...meshLab(), ...extra];
  pick(objects, 'Service', 'orders').metadata.annotations = serviceAnnotations;
  return analyze(asManifests(objects)).findings.filter((f) => f.ruleId === RULE);
}

describe('parseFailureAccrual (parse_accrual_config)', () => {
  test('defaults: 7 failures, 1s to 60s, jitter 0.5; unified adds 0.8 over 10s from 5 requests', () => {
    expect(parseFailureAccrual({ 'balancer.linkerd.io/failure-accrual': 'consecutive' }))
      .toEqual({ ok: true, value: { mode: 'consecutive', maxFailures: 7, minPenaltyMs: 1_000, maxPenaltyMs: 60_000, jitter: 0.5 } });
    expect(parseFailureAccrual({ 'balancer.linkerd.io/failure-accrual': 'unified' }))
      .toMatchObject({ ok: true, value: { mode: 'unified', successRate: { threshold: 0.8, windowMs: 10_000, minRequests: 5 } } });
    expect(parseFailureAccrual({})).toEqual({ ok: true, value: undefined });
  });
  test.each([
    [{ 'balancer.linkerd.io/failure-accrual': 'Consecutive' }, /the modes are "consecutive" and "unified"/],
    [{ 'balancer.linkerd.io/failure-accrual': 'consecutive', 'balancer.linkerd.io/failure-accrual-consecutive-max-penalty': '1m30s' }, /max-penalty: .*compound/],
    [{ 'balancer.linkerd.io/failure-accrual': 'consecutive', 'balancer.linkerd.io/failure-accrual-consecutive-min-penalty': '2m' }, /min-penalty \(120000 ms\) exceeds/],
    [{ 'balancer.linkerd.io/failure-accrual': 'consecutive', 'balancer.linkerd.io/failure-accrual-consecutive-max-penalty': '0' }, /(exceeds|is zero)/],
    [{ 'balancer.linkerd.io/failure-accrual': 'consecutive', 'balancer.linkerd.io/failure-accrual-consecutive-jitter-ratio': 'NaN' }, /negative \(or not a number\)/],
    [{ 'balancer.linkerd.io/failure-accrual': 'consecutive', 'balancer.linkerd.io/failure-accrual-consecutive-max-failures': '-1' }, /not a whole number/],
    [{ 'balancer.linkerd.io/failure-accrual': 'unified', 'balancer.alpha.linkerd.io/failure-accrual-success-rate-threshold': '80' }, /not between 0 and 1/],
    [{ 'balancer.linkerd.io/failure-accrual': 'unified', 'balancer.alpha.linkerd.io/failure-accrual-success-rate-window': '5ms' }, /below 10ms/],
  ])('refuses %j', (annotations, reason) => {
    const parsed = parseFailureAccrual(annotations);
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(parsed.reason).toMatch(reason);
  });
  test('the jitter ratio is read as an f32 (parse_consecutive_params): 100.000001 rounds to 100, which is allowed', () => {
    const jitter = (value: string) => parseFailureAccrual({ 'balancer.linkerd.io/failure-accrual': 'consecutive', 'balancer.linkerd.io/failure-accrual-consecutive-jitter-ratio': value });
    expect(jitter('100.000001').ok).toBe(true);
    expect(jitter('100.01').ok).toBe(false);
  });
  test('the window floor and the request ceiling hold only while the threshold is not 0 (a consecutive-only unified policy)', () => {
    expect(parseFailureAccrual({
      'balancer.linkerd.io/failure-accrual': 'unified',
      'balancer.alpha.linkerd.io/failure-accrual-success-rate-threshold': '0',
      'balancer.alpha.linkerd.io/failure-accrual-success-rate-window': '5ms',
      'balancer.alpha.linkerd.io/failure-accrual-success-rate-min-requests': '2000000',
    }).ok).toBe(true);
  });
});

describe('LKD-RETRY-007 balancer annotations', () => {
  test('passes on readable settings, and on none (the baseline)', () => {
    expect(findings({})).toEqual([]);
    expect(findings({
      'balancer.linkerd.io/failure-accrual': 'unified',
      'balancer.linkerd.io/failure-accrual-consecutive-max-failures': ' 5 ',
      'balancer.linkerd.io/failure-accrual-consecutive-max-penalty': '90s',
      'balancer.alpha.linkerd.io/failure-accrual-success-rate-threshold': '.9',
      'balancer.alpha.linkerd.io/penalize-failures': 'True',
      'balancer.alpha.linkerd.io/failure-accrual-honor-retry-after': 't',
    })).toEqual([]);
  });

  test('an unreadable value drops the whole block, with only a log line: error', () => {
    const [finding, ...rest] = findings({ 'balancer.linkerd.io/failure-accrual': 'consecutive', 'balancer.linkerd.io/failure-accrual-consecutive-max-penalty': '1m30s' });
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({ severity: Severity.ERROR, resource: { kind: 'Service', name: 'orders' } });
    expect(finding.message).toMatch(/Linkerd logs "Failed to parse accrual config" and this Service gets no failure accrual at all/);
    expect(findings({ 'balancer.alpha.linkerd.io/penalize-failures': 'yes' })[0].message).toMatch(/not a boolean .*gets no load biaser/);
  });

  test('what parses but does nothing where it is: warnings', () => {
    const messages = findings({
      'balancer.linkerd.io/failure-accrual': 'consecutive',
      'balancer.alpha.linkerd.io/failure-accrual-success-rate-threshold': '0.9',
      'balancer.linkerd.io/failure-accrual-consecutive-max-failure': '5',
    }).map((f) => `${f.severity}: ${f.message}`);
    expect(messages).toEqual([
      expect.stringMatching(/^warning: annotation balancer.linkerd.io\/failure-accrual-consecutive-max-failure is not a key Linkerd 2.20 reads/),
      expect.stringMatching(/^warning: .*success-rate-threshold applies only under balancer.linkerd.io\/failure-accrual: unified, and this Service sets "consecutive"/),
    ]);
    expect(findings({ 'balancer.alpha.linkerd.io/failure-accrual-honor-retry-after': 'true' })[0].message).toMatch(/has no failure accrual/);
  });

  test('on an EgressNetwork: read like a Service\'s, except the load biaser', () => {
    const egress = (annotations: Record<string, string>) => ({
      apiVersion: 'policy.linkerd.io/v1alpha1', kind: 'EgressNetwork', metadata: { name: 'internet', namespace: 'mesh-lab', annotations }, spec: { trafficPolicy: 'Allow' },
    });
    const found = findings({}, [egress({ 'balancer.linkerd.io/failure-accrual': 'fast', 'balancer.alpha.linkerd.io/penalize-failures': 'true' })]);
    expect(found.map((f) => `${f.severity} ${f.resource.kind}: ${f.message}`)).toEqual([
      expect.stringMatching(/^error EgressNetwork: balancer.linkerd.io\/failure-accrual is "fast"/),
      expect.stringMatching(/^warning EgressNetwork: balancer.alpha.linkerd.io\/penalize-failures has no effect on an EgressNetwork/),
    ]);
  });

  test('on a workload or a route they do nothing', () => {
    const objects = meshLab();
    pick(objects, 'Deployment', 'orders-v1').spec.template.metadata.annotations = { 'balancer.linkerd.io/failure-accrual': 'consecutive' };
    pick(objects, 'HTTPRoute', 'orders-split').metadata.annotations = { 'balancer.linkerd.io/failure-accrual': 'consecutive' };
    const found = analyze(asManifests(objects)).findings.filter((f) => f.ruleId === RULE);
    expect(found.map((f) => `${f.severity} ${f.resource.kind}`).sort()).toEqual(['warning Deployment', 'warning HTTPRoute']);
    expect(found.every((f) => /reads them from Services and EgressNetworks only/.test(f.message))).toBe(true);
  });
});
