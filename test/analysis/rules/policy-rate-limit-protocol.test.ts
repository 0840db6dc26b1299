/** LKD-POL-024: rate limits travel only inside the HTTP protocols of the inbound policy (grpc/src/inbound.rs to_server). */
import { analyze } from '../../../src/analysis/engine';
import { asManifests, meshLab, pick } from '../../support/mesh-fixture';

function withLimit(protocol?: string): any[] {
  const objects = meshLab();
  const server = pick(objects, 'Server', 'orders-http');
  if (protocol === undefined) delete server.spec.proxyProtocol; else server.spec.proxyProtocol = protocol;
  objects.push({
    apiVersion: 'policy.linkerd.io/v1alpha1',
    kind: 'HTTPLocalRateLimitPolicy',
    metadata: { name: 'orders-rl', namespace: 'mesh-lab' },
    spec: { targetRef: { group: 'policy.linkerd.io', kind: 'Server', name: 'orders-http' }, total: { requestsPerSecond: 100 } },
  });
  return objects;
}

const findings = (objects: any[]) => analyze(asManifests(objects)).findings.filter((f) => f.ruleId === 'LKD-POL-024');

describe('LKD-POL-024 rate limits need an HTTP Server', () => {
  test.each([['HTTP/1'], ['HTTP/2'], ['unknown'], [undefined]])('a Server with proxyProtocol %s carries the limit: no finding', (protocol) => {
    expect(findings(withLimit(protocol))).toEqual([]);
  });

  test.each([['gRPC'], ['opaque'], ['TLS']])('a %s Server never gets the limit: error on the policy', (protocol) => {
    const [f, ...rest] = findings(withLimit(protocol));
    expect(rest).toEqual([]);
    expect([f.severity, f.resource.name]).toEqual(['error', 'orders-rl']);
    expect(f.message).toMatch(new RegExp(`proxyProtocol is ${protocol.replace('/', '\\/')}; Linkerd sends rate limits only`));
  });
});
