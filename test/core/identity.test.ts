import { identityProblem } from '../../src/core/identity';

// policy-controller/runtime/src/validation.rs validate_identity: DNS_LIKE_IDENTITY_REGEX or a SPIFFE ID.
describe('identityProblem: the identities Linkerd\'s webhook accepts in MeshTLSAuthentication.spec.identities', () => {
  test.each([
    '*', '*.mesh-lab.serviceaccount.identity.linkerd.cluster.local', 'client.mesh-lab.serviceaccount.identity.linkerd.cluster.local',
    'a', 'a-b.c1', '0.example', 'spiffe://td', 'spiffe://td/ns/x', 'spiffe://td/A_b.c-d',
  ])('%s is accepted', (identity) => {
    expect(identityProblem(identity)).toBeUndefined();
  });

  test.each([
    ['-client.mesh-lab', /neither a DNS-like name/],
    ['client-.mesh-lab', /neither a DNS-like name/],
    ['client.-mesh-lab', /neither a DNS-like name/],
    ['client..mesh-lab', /neither a DNS-like name/],
    ['Client.mesh-lab', /neither a DNS-like name/],
    ['client.*', /neither a DNS-like name/],
    ['**.mesh-lab', /neither a DNS-like name/],
    ['', /neither a DNS-like name/],
    ['spiffe://TD/x', /trust domain/],
    ['spiffe://td/x/', /SPIFFE path/],
    ['spiffe://td//x', /SPIFFE path/],
  ])('%s is refused', (identity, reason) => {
    expect(identityProblem(identity)).toMatch(reason);
  });
});
