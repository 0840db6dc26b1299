import { Testing } from 'cdk8s';
import { GrpcCanary } from '../../examples/grpc-canary/grpc-canary';
import { MeshChecks, Severity } from '../../src';
import { conformanceIssues } from '../support/conformance';
import { describeWithShared } from '../support/shared';
import { find, synthChecked } from '../support/synth';

function canary() {
  const app = Testing.app();
  MeshChecks.of(app).configure({ printWarnings: false });
  const chart = new GrpcCanary(app, 'grpc-canary');
  return { app, chart, objects: synthChecked(chart) };
}

describe('examples/grpc-canary', () => {
  const { app, objects } = canary();

  test('has the workloads, their Services, the policy and two GRPCRoutes', () => {
    expect(objects.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
      'AuthorizationPolicy/web-to-emoji',
      'Deployment/emoji-v1', 'Deployment/emoji-v2', 'Deployment/web',
      'GRPCRoute/emoji-canary', 'GRPCRoute/emoji-reads',
      'MeshTLSAuthentication/web',
      'Namespace/emojivoto',
      'Server/emoji-grpc',
      'Service/emoji-svc', 'Service/emoji-v1', 'Service/emoji-v2',
      'ServiceAccount/emoji', 'ServiceAccount/web',
    ]);
  });

  test('the reads are retried on exact methods at 90/10; every other call goes 90/10 without retries', () => {
    const weighted = [{ name: 'emoji-v1', port: 8080, weight: 90 }, { name: 'emoji-v2', port: 8080, weight: 10 }];
    const reads = find(objects, 'GRPCRoute', 'emoji-reads');
    expect(reads.metadata.annotations).toEqual({
      'retry.linkerd.io/grpc': 'unavailable', 'retry.linkerd.io/limit': '2', 'retry.linkerd.io/timeout': '300ms', 'timeout.linkerd.io/request': '2s',
    });
    expect(reads.spec.rules[0].matches.map((m: any) => m.method)).toEqual([
      { type: 'Exact', service: 'emojivoto.v1.EmojiService', method: 'ListAll' },
      { type: 'Exact', service: 'emojivoto.v1.EmojiService', method: 'FindByShortcode' },
    ]);
    expect(reads.spec.rules[0].backendRefs).toEqual(weighted);
    const rest = find(objects, 'GRPCRoute', 'emoji-canary');
    expect(rest.metadata.annotations).toBeUndefined();
    expect(rest.spec).toEqual({ parentRefs: [{ group: 'core', kind: 'Service', name: 'emoji-svc', port: 8080 }], rules: [{ backendRefs: weighted }] });
  });

  test('the Services select by app/version and declare HTTP/2 so Linkerd applies the GRPCRoutes', () => {
    expect(find(objects, 'Service', 'emoji-svc').spec.selector).toEqual({ 'app.kubernetes.io/name': 'emoji' });
    expect(find(objects, 'Service', 'emoji-v2').spec.selector).toEqual({ 'app.kubernetes.io/name': 'emoji', 'app.kubernetes.io/version': 'v2' });
    expect(find(objects, 'Service', 'emoji-v1').spec.ports).toEqual([{ name: 'grpc', port: 8080, targetPort: 8080, appProtocol: 'kubernetes.io/h2c' }]);
  });

  test('the analysis finds no error, and no retry on a non-idempotent call (LKD-RETRY-001)', () => {
    const findings = MeshChecks.of(app).analyze();
    expect(findings.filter((f) => f.severity === Severity.ERROR)).toEqual([]);
    expect(findings.map((f) => f.ruleId)).not.toContain('LKD-RETRY-001');
  });
});

describeWithShared('examples/grpc-canary against the real CRDs', () => {
  test('every object passes the conformance harness (schema, defaults and CEL)', () => {
    expect(conformanceIssues(canary().objects)).toEqual([]);
  });
});
