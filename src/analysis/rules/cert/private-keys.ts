import { Severity } from '../../finding';
import { Rule, RuleArea } from '../../rule';
import { scanIndex } from '../secrets/scan';

const MAX_PATHS = 3;

/** A private key in the manifests is readable by anyone who can read Git, CI logs or the GitOps controller. */
export const privateKeyInOutput: Rule = {
  id: 'LKD-CERT-005',
  area: RuleArea.CERT,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Leaked: a private key written into the output is readable by everyone who reads the output; nothing outside '
      + 'the manifests can undo that.',
    title: 'No private key in the synthesized output',
    why: 'Manifests end up in Git, CI artifacts and GitOps controllers. Whoever reads the Linkerd issuer key can mint '
      + 'any mesh identity and pass every AuthorizationPolicy. Keys are found as PEM text and in what Kubernetes and '
      + 'kubeconfig encode: base64 in Secret data, ConfigMap binaryData and kubeconfig *-data fields (PEM, or DER without '
      + 'any header), and JSON or YAML documents inside strings (last-applied-configuration, a kubeconfig in a ConfigMap).',
    fix: 'Provide the key out of band (cert-manager, an external secret store, `kubectl create secret`); if the output '
      + 'is itself stored as a secret, suppress LKD-CERT-005 on the object with a reason.',
    linkerdSource: 'not Linkerd: secret-handling policy of this library (the key it protects is the linkerd-identity-issuer '
      + 'Secret of charts/linkerd-control-plane/templates/identity.yaml)',
    badExample: "kind: Secret\nmetadata: {name: linkerd-identity-issuer}\nstringData:\n  tls.key: '<the issuer key as a PEM block>'   # the literal key, in Git",
    goodExample: 'kind: Certificate  # cert-manager writes the Secret in the cluster\nspec: {secretName: linkerd-identity-issuer, isCA: true}',
  },
  check(ctx) {
    for (const [entry, { privateKeys: paths }] of scanIndex(ctx.index)) {
      if (paths.length === 0) continue;
      const shown = paths.slice(0, MAX_PATHS).join(', ') + (paths.length > MAX_PATHS ? ` and ${paths.length - MAX_PATHS} more` : '');
      ctx.report(entry, `a private key is written at ${shown} (the key itself is not repeated here).`);
    }
  },
};
