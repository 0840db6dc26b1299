import { templateTruthy, valueAt } from '../../../core/helm-values';
import { describeValue } from '../../../core/runtime-checks';
import { Severity } from '../../finding';
import { controlPlaneInstalls } from '../../model/installs';
import { MeshIndex } from '../../model/mesh-index';
import { Rule, RuleArea } from '../../rule';

export const TRUST_ROOTS = 'linkerd-identity-trust-roots';
const TRUST_MANAGER_GROUP = 'trust.cert-manager.io';

/** The trust roots exist if the ConfigMap does, or a trust-manager Bundle of that name writes it (output or inventory). */
function hasTrustRoots(index: MeshIndex, namespace: string): boolean {
  return index.get('', 'ConfigMap', namespace, TRUST_ROOTS) !== undefined
    || index.list(TRUST_MANAGER_GROUP, 'Bundle').some((b) => b.id.name === TRUST_ROOTS)
    || index.list(TRUST_MANAGER_GROUP, 'ClusterBundle').some((b) => b.id.name === TRUST_ROOTS);
}

/** externalCA tells the chart not to create the trust roots; something else must, or no proxy can start. */
export const externalCaWithoutTrustRoots: Rule = {
  id: 'LKD-CP-003',
  area: RuleArea.CONTROL_PLANE,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Fails to start: charts/linkerd-control-plane/templates/identity.yaml renders no trust-roots ConfigMap under '
      + 'externalCA, and charts/partials/templates/_proxy.tpl mounts it in every proxy.',
    title: 'identity.externalCA has a source for the linkerd-identity-trust-roots ConfigMap',
    why: 'With identity.externalCA: true the chart does not create ConfigMap linkerd-identity-trust-roots, yet the proxy injector '
      + 'mounts it for every injection and the control-plane proxies read it. Without it, the control plane and every meshed pod '
      + 'fail to start.',
    fix: 'Add a trust-manager Bundle named linkerd-identity-trust-roots (LinkerdIdentity.fromCertManager() does), or the ConfigMap '
      + 'itself (key ca-bundle.crt), or list the existing one in the inventory.',
    linkerdSource: 'charts/linkerd-control-plane/templates/identity.yaml (ConfigMap linkerd-identity-trust-roots only `if not '
      + '.Values.identity.externalCA`); charts/partials/templates/_proxy.tpl (mounts '
      + 'linkerd-identity-trust-roots); charts/linkerd-control-plane/templates/proxy-injector.yaml',
    badExample: 'valuesObject:\n  identity:\n    externalCA: true   # and no Bundle or ConfigMap linkerd-identity-trust-roots',
    goodExample: 'apiVersion: trust.cert-manager.io/v1alpha1\nkind: Bundle\nmetadata:\n  name: linkerd-identity-trust-roots',
  },
  check(ctx) {
    for (const install of controlPlaneInstalls(ctx.index)) {
      // The chart tests it with `if`: the string "true" (or "false") leaves the ConfigMap out as well.
      const externalCA = valueAt(install.values, 'identity.externalCA');
      if (!templateTruthy(externalCA)) continue;
      const namespace = install.namespace ?? ctx.context.controlPlaneNamespace;
      if (hasTrustRoots(ctx.index, namespace)) continue;
      const set = externalCA === true ? 'identity.externalCA: true,' : `identity.externalCA to ${describeValue(externalCA)}, which the chart reads as true,`;
      ctx.report(install.subject, `${install.source} sets ${set} but neither ConfigMap ${namespace}/${TRUST_ROOTS} nor a `
        + `trust-manager Bundle ${TRUST_ROOTS} is in the output or the inventory; the control plane cannot start without it.`);
    }
  },
};
