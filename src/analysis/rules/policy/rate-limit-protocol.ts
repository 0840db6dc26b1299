import { POLICY_GROUP } from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { specOf } from '../../model/objects';
import { asRef, isPolicyRef } from '../../model/refs';
import { Rule, RuleArea } from '../../rule';

/** The Server protocols whose inbound policy carries a local rate limit: HTTP/1, HTTP/2 and detected. */
const LIMITED = new Set(['unknown', 'HTTP/1', 'HTTP/2']);

/** A rate limit is sent to the proxy only with HTTP protocols; on a gRPC, opaque or TLS Server it limits nothing. */
export const rateLimitProtocol: Rule = {
  id: 'LKD-POL-024',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  effects: [FindingEffect.IGNORED],
  doc: {
    certainty: 'Ignored: policy-controller/grpc/src/inbound.rs to_server sends rate limits only for detected, HTTP/1 and '
      + 'HTTP/2 Servers.',
    title: 'An HTTPLocalRateLimitPolicy targets a Server whose protocol carries rate limits',
    why: 'The policy controller sends a Server\'s local rate limit to the proxy only inside the HTTP protocols of the inbound '
      + 'policy: detected (proxyProtocol unknown or unset), HTTP/1 and HTTP/2. The gRPC, opaque and TLS protocols have no '
      + 'rate-limit field, so a policy on such a Server is accepted and its status may even read Accepted, while no request '
      + 'is ever limited.',
    linkerdSource: 'policy-controller/grpc/src/inbound.rs to_server (http_local_rate_limit / local_rate_limit only on '
      + 'Detect, Http1 and Http2); policy-controller/k8s/index/src/inbound/index.rs PolicyIndex::client_ratelimit',
    fix: 'Rate-limit an HTTP Server (proxyProtocol HTTP/1, HTTP/2, or unset so the proxy detects it), or drop the policy.',
    badExample: 'kind: Server\nspec:\n  proxyProtocol: gRPC\n---\nkind: HTTPLocalRateLimitPolicy\nspec:\n  targetRef: {group: policy.linkerd.io, kind: Server, name: emoji-grpc}',
    goodExample: 'kind: Server\nspec:\n  proxyProtocol: HTTP/2\n---\nkind: HTTPLocalRateLimitPolicy\nspec:\n  targetRef: {group: policy.linkerd.io, kind: Server, name: emoji-grpc}',
  },
  check(ctx) {
    for (const policy of ctx.index.own(POLICY_GROUP, 'HTTPLocalRateLimitPolicy')) {
      const ref = asRef(specOf(policy).targetRef);
      if (!isPolicyRef(ref, 'Server')) continue;
      const server = ctx.index.get(POLICY_GROUP, 'Server', policy.id.namespace, String(ref!.name));
      if (!server) continue;
      const protocol = specOf(server).proxyProtocol;
      const value = typeof protocol === 'string' ? protocol : 'unknown';
      if (LIMITED.has(value)) continue;
      ctx.report(policy, `spec.targetRef names Server ${server.id.name}, whose proxyProtocol is ${value}; Linkerd sends rate limits only `
        + 'for detected, HTTP/1 and HTTP/2 Servers, so this policy limits nothing. Rate-limit an HTTP Server, or drop the policy.', { effect: FindingEffect.IGNORED });
    }
  },
};
