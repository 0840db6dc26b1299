import { formatDuration } from '../../../src/core/duration-format';
import {
  isOpenApiDuration, parseGatewayDuration, parseGoDuration, parseGrpcRetryCodes, parseHttpRetryConditions, parseK8sDuration, parseLinkerdDuration,
  parseRetryLimit,
} from '../../../src/core/linkerd-grammar';

const value = (parsed: { ok: boolean; value?: unknown }) => (parsed.ok ? parsed.value : undefined);

describe('parseLinkerdDuration', () => {
  test.each([
    ['0', 0], ['00', 0], ['500ms', 500], ['90s', 90_000], ['2m', 120_000], ['1h', 3_600_000], ['1d', 86_400_000], [' 5s ', 5_000], ['0s', 0],
  ])('reads %j', (text, ms) => {
    expect(parseLinkerdDuration(text)).toEqual({ ok: true, value: ms });
  });
  test.each(['1m30s', '1.5s', '-1s', '5', '10S', '100us', '', 's', '5 s', '1h30m'])('refuses %j', (text) => {
    expect(parseLinkerdDuration(text).ok).toBe(false);
  });
  test('names compound values in the reason', () => {
    expect(parseLinkerdDuration('1m30s')).toEqual({ ok: false, reason: expect.stringContaining('compound') });
  });
  test('refuses non-strings and overflow', () => {
    expect(parseLinkerdDuration(5).ok).toBe(false);
    expect(parseLinkerdDuration(undefined).ok).toBe(false);
    expect(parseLinkerdDuration('99999999999999999999d').ok).toBe(false);
  });
});

describe('parseGatewayDuration', () => {
  test.each([['1h30m', 5_400_000], ['500ms', 500], ['0s', 0], ['1h1m1s1ms', 3_661_001], ['99999s', 99_999_000]])('reads %j', (text, ms) => {
    expect(value(parseGatewayDuration(text))).toBe(ms);
  });
  test.each(['1.5s', '100us', '1d', '-1s', '0', '1h1m1s1ms1h', '123456s', ''])('refuses %j', (text) => {
    expect(parseGatewayDuration(text).ok).toBe(false);
  });
});

describe('parseK8sDuration (linkerd2 duration.rs, Go syntax)', () => {
  test.each([
    ['0', 0, false], ['', 0, false], ['1h30m', 5_400_000, false], ['1.5s', 1_500, false], ['.5m', 30_000, false], ['250us', 0.25, false],
    ['1\u00b5s', 0.001, false], ['100ns', 0.0001, false], ['-5s', 5_000, true], ['+5s', 5_000, false], ['+-5s', 5_000, false], ['5s+3s', 8_000, false],
  ])('reads %j', (text, ms, negative) => {
    const parsed = parseK8sDuration(text);
    expect(parsed.ok).toBe(true);
    if (parsed.ok) expect([parsed.value.ms, parsed.value.negative]).toEqual([expect.closeTo(ms, 9), negative]);
  });
  test.each(['10', '00', '1d', '5S', '1hr', ' 5s', '5 s', '5s-3s', '1e3s', 'inf', 5])('refuses %j', (text) => {
    expect(parseK8sDuration(text).ok).toBe(false);
  });
});

describe('parseHttpRetryConditions', () => {
  test('reads every item form', () => {
    expect(value(parseHttpRetryConditions('5xx,gateway-error,429,500-504,5XX'))).toEqual([
      { min: 500, max: 599 }, { min: 502, max: 504 }, { min: 429, max: 429 }, { min: 500, max: 504 }, { min: 500, max: 599 },
    ]);
  });
  test.each(['5xx, 429', '', '600', '99', '504-500', '4xx', '500-', 'gateway_error', '5xx,'])('refuses %j', (text) => {
    expect(parseHttpRetryConditions(text).ok).toBe(false);
  });
  test('explains that spaces are not trimmed', () => {
    expect(parseHttpRetryConditions('5xx, 429')).toEqual({ ok: false, reason: expect.stringContaining('spaces') });
  });
});

describe('parseGrpcRetryCodes', () => {
  test('reads codes case-insensitively', () => {
    expect(value(parseGrpcRetryCodes('Unavailable,deadline-exceeded,INTERNAL,cancelled,resource-exhausted'))).toEqual([
      'unavailable', 'deadline-exceeded', 'internal', 'cancelled', 'resource-exhausted',
    ]);
  });
  test.each(['unavailable, internal', 'not-found', '', 'UNAVAILABLE;internal'])('refuses %j', (text) => {
    expect(parseGrpcRetryCodes(text).ok).toBe(false);
  });
});

describe('parseRetryLimit', () => {
  test.each([['0', 0], ['3', 3], ['65535', 65535], ['+2', 2]])('reads %j', (text, n) => {
    expect(value(parseRetryLimit(text))).toBe(n);
  });
  test.each(['65536', '-1', '1.5', ' 3', 'three', ''])('refuses %j', (text) => {
    expect(parseRetryLimit(text).ok).toBe(false);
  });
  test('refuses a number that is not a string (annotations are strings)', () => {
    expect(parseRetryLimit(3).ok).toBe(false);
  });
});

test('formatDuration picks the largest whole unit', () => {
  expect([5_400_000, 90_000, 1_500, 86_400_000, 0].map(formatDuration)).toEqual(['90m', '90s', '1500ms', '1d', '0ms']);
});

/** kube-openapi strfmt ParseDuration: what the API server admits for a CRD field of format: duration. */
describe('isOpenApiDuration', () => {
  test.each(['10s', '1m30s', '-5s', '1d', '2 weeks', '10 seconds', '3 \u00b5s', '1 Hours', 'in 3min', '5s-3s'])('admits %j', (text) => {
    expect(isOpenApiDuration(text)).toBe(true);
  });
  test.each(['', 'soon', '1x', '10', '99999999999999999999s', '1d 99999999999999999999x'])('refuses %j', (text) => {
    expect(isOpenApiDuration(text)).toBe(false);
  });
});

/** Go's time.ParseDuration, which the proxy injector applies to its duration annotations. */
describe('parseGoDuration', () => {
  test.each([
    ['0', 0], ['+0', 0], ['1m30s', 90_000], ['1.5h', 5_400_000], ['.5s', 500], ['5.s', 5000], ['-2s', -2000], ['100us', 0.1],
    ['100\u00b5s', 0.1], ['100\u03bcs', 0.1], ['1h2m3s4ms', 3_723_004],
  ])('reads %j as %d ms', (text, ms) => {
    expect(parseGoDuration(text)).toBeCloseTo(ms, 6);
  });
  test.each(['', '1', '00', '5 s', ' 5s', '5sec', '.s', '1.5.5s', '5s-', '--5s', '3000000h'])('refuses %j', (text) => {
    expect(parseGoDuration(text)).toBeUndefined();
  });
});
