/**
 * One probe reader for the generated probe routes and the probe rules: the policy controller's (`pod_http_probes`).
 * LKD-POL-010 used to read probes its own way (a named port matched exactly, in any protocol; the path cut at `?` only),
 * so it could name a probe the controller does not generate a route for, or miss one it does.
 */
import { analyze } from '../../src/analysis/engine';
import { httpProbes, probePaths } from '../../src/analysis/model/inbound/probes';
import { asManifests } from '../support/mesh-fixture';

const NS = 'shop';

function deployment(probe: Record<string, any>, ports: any[]): any {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'web', namespace: NS },
    spec: {
      selector: { matchLabels: { app: 'web' } },
      template: {
        metadata: { labels: { app: 'web' }, annotations: { 'linkerd.io/inject': 'enabled' } },
        spec: { containers: [{ name: 'app', image: 'example/web:1.0.0', ports, readinessProbe: { httpGet: probe } }] },
      },
    },
  };
}

const NAMESPACE = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } };
const SERVER = {
  apiVersion: 'policy.linkerd.io/v1beta3',
  kind: 'Server',
  metadata: { name: 'web-http', namespace: NS },
  spec: { podSelector: { matchLabels: { app: 'web' } }, port: 8080, proxyProtocol: 'HTTP/1' },
};
const ROUTE = {
  apiVersion: 'policy.linkerd.io/v1beta3',
  kind: 'HTTPRoute',
  metadata: { name: 'web-api', namespace: NS },
  spec: { parentRefs: [{ group: 'policy.linkerd.io', kind: 'Server', name: 'web-http' }], rules: [{ matches: [{ path: { value: '/api' } }] }] },
};

function run(probe: Record<string, any>, ports: any[]) {
  const result = analyze(asManifests([NAMESPACE, deployment(probe, ports), SERVER, ROUTE]));
  const pod = result.index.podTemplates.find((p) => p.owner.id.name === 'web')!;
  return { result, pod, messages: result.findings.filter((f) => f.ruleId === 'LKD-POL-010').map((f) => f.message) };
}

describe('the one probe reader', () => {
  test('the path loses its query and fragment, the query is kept for route matching, and the rule names the controller\'s path', () => {
    const { result, pod, messages } = run({ port: 8080, path: '/ready?deep=1#top' }, [{ containerPort: 8080 }]);
    const [probe] = httpProbes(pod);
    expect(probe).toMatchObject({ kind: 'readinessProbe', container: 'app', port: 8080, path: '/ready' });
    expect(probe.query.get('deep')).toBe('1');
    expect(probePaths(pod, result.index).get(8080)).toEqual(['/ready']);
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('(GET /ready on port 8080)');
  });

  test('a named probe port resolves among the container\'s TCP ports only, as the controller resolves it', () => {
    const { result, pod, messages } = run({ port: 'http', path: '/ready' }, [{ name: 'http', containerPort: 8080, protocol: 'UDP' }]);
    expect(httpProbes(pod)).toEqual([]);
    expect(probePaths(pod, result.index).size).toBe(0);
    expect(messages).toEqual([]);
  });
});
