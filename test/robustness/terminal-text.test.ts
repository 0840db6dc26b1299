/**
 * Text output escapes control characters in anything that came from the input: a carriage return or an escape
 * sequence in an object name must not overwrite or recolour a report line on the reviewer's terminal.
 */
import { analyze } from '../../src/analysis/engine';
import { formatText } from '../../src/analysis/report';
import { IGNORE_CHECK_ANNOTATION_PREFIX } from '../../src/analysis/suppressions';
import { LinkerdValidation } from '../../src/frontends/plugin';
import { printableLine, printableText } from '../../src/util/terminal-text';
import { assertBuilt, removeDir, runCli, tempDir, writeYaml } from '../frontends/cli-harness';

/** Every character that can move the cursor, erase, recolour or reorder what a terminal shows. */
const RAW_CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;

const HOSTILE_NAME = 'orders\r0 errors, 0 warnings\u001b[2K\u009b31m\u202eevil';

function route(name: string, annotations: Record<string, string> = {}): any {
  return {
    apiVersion: 'gateway.networking.k8s.io/v1',
    kind: 'HTTPRoute',
    metadata: { name, namespace: 'shop', annotations },
    spec: { parentRefs: [{ kind: 'Service', name: `svc\u001b]0;title\u0007${name}`, port: 8080 }] },
  };
}

describe('printable text', () => {
  test('control characters become visible escapes; the text stays readable', () => {
    expect(printableLine('a\rb\nc\u001b[2Jd\u202ee\u0000')).toBe('a\\rb\\nc\\u001b[2Jd\\u202ee\\u0000');
    expect(printableText('line one\nline\rtwo\n')).toBe('line one\nline\\rtwo\n');
    expect(printableLine('plain ASCII, ünïcödé and 日本語')).toBe('plain ASCII, ünïcödé and 日本語');
  });
});

describe('the text report', () => {
  test('a name, message, file and reason with CR, ESC, C1 and bidi controls are printed escaped, one line per finding', () => {
    const result = analyze([
      { object: route(HOSTILE_NAME), source: { file: 'evil\u001b[31m.yaml', line: 1 } },
      { object: route('quiet', { [`${IGNORE_CHECK_ANNOTATION_PREFIX}LKD-ROUTE-001`]: 'ok\r\u001b[2Kreally' }), source: { file: 'b.yaml', line: 1 } },
    ]);
    const text = formatText(result.findings, result.suppressed);
    expect(text).not.toMatch(RAW_CONTROL);
    expect(text).toContain('HTTPRoute shop/orders\\r0 errors, 0 warnings\\u001b[2K\\u009b31m\\u202eevil');
    expect(text).toContain('evil\\u001b[31m.yaml:1');
    expect(text).toContain('(reason: ok\\r\\u001b[2Kreally)');
    expect(text.split('\n').filter((l) => l.includes('LKD-ROUTE-001'))).toHaveLength(2);
  });

  test('the CLI prints the same, and diff text does too', () => {
    assertBuilt();
    const dir = tempDir('terminal-text');
    try {
      writeYaml(dir, 'base/mesh.yaml', [route('quiet')]);
      writeYaml(dir, 'head/mesh.yaml', [route(HOSTILE_NAME)]);
      const analyzed = runCli(['analyze', 'head'], { cwd: dir });
      expect(analyzed.status).toBe(1);
      expect(analyzed.stdout).toContain('orders\\r0 errors');
      expect(analyzed.stdout).not.toMatch(RAW_CONTROL);
      const diff = runCli(['diff', 'base', 'head'], { cwd: dir });
      expect([0, 1]).toContain(diff.status);
      expect(diff.stdout).not.toMatch(RAW_CONTROL);
    } finally {
      removeDir(dir);
    }
  });
});

describe('the cdk8s-cli plugin', () => {
  test('violations and log lines carry the escapes, not the control characters', async () => {
    const dir = tempDir('terminal-plugin');
    try {
      writeYaml(dir, 'app.k8s.yaml', [route(HOSTILE_NAME), route('quiet', { [`${IGNORE_CHECK_ANNOTATION_PREFIX}LKD-ROUTE-001`]: 'ok\r\u001b[2Kreally' })]);
      const violations: any[] = [];
      const logs: string[] = [];
      await new LinkerdValidation({}).validate({
        manifests: [`${dir}/app.k8s.yaml`],
        metadata: {},
        report: { addViolation: (v: any) => violations.push(v), submit: () => undefined },
        logger: { log: (m: string) => logs.push(m) },
      });
      expect(violations.map((v) => v.ruleName)).toContain('LKD-ROUTE-001');
      const printed = JSON.stringify(violations.map((v) => [v.recommendation, v.violatingResources[0].resourceName])) + logs.join('\n');
      expect(violations.map((v) => v.recommendation).join('\n')).not.toMatch(RAW_CONTROL);
      expect(logs.join('')).not.toMatch(RAW_CONTROL);
      expect(printed).toContain('orders\\\\r0 errors');
    } finally {
      removeDir(dir);
    }
  });
});
