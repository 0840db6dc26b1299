/**
 * Runbook commands for delivery (d), Terraform `helm_release` resources synthesized by the CDKTF entry point. Kept
 * here, free of cdktf imports, so all four forms' runbooks live together and the main entry point stays cdktf-free.
 */
import { DeliveryForm } from './form';
import { DeliverySteps, waitForControlPlane, waitForCrds } from './steps';

/** Where the Terraform configuration and the resources live. */
export interface TerraformAddresses {
  /** The synthesized stack directory, e.g. `cdktf.out/stacks/linkerd`. */
  readonly stackDir: string;
  /** Resource address of the CRDs release, e.g. `helm_release.linkerd_crds`. */
  readonly crdsAddress: string;
  /** Resource address of the control-plane release. */
  readonly controlPlaneAddress: string;
  /** True when Kubernetes objects (namespace, identity) must be applied before the releases. */
  readonly hasPrerequisites: boolean;
}

export function terraformSteps(addresses: TerraformAddresses): DeliverySteps {
  const tf = (args: string) => `terraform -chdir="$STACK_DIR" ${args}`;
  return {
    form: DeliveryForm.TERRAFORM,
    title: 'Terraform helm_release resources (CDKTF)',
    variables: (install) => [`NS=${install.namespace}`, `STACK_DIR="${addresses.stackDir}"`,
      ...(addresses.hasPrerequisites ? ['PREREQUISITES=<the file you wrote prerequisiteManifests to>'] : [])],
    publish: () => ({
      text: 'Change the version in code, synthesize, and review the plan.'
        + (addresses.hasPrerequisites ? ' Apply the namespace and identity objects first: the releases do not create them.' : ''),
      commands: [
        'npx cdktf synth',
        ...(addresses.hasPrerequisites ? ['kubectl apply -f "$PREREQUISITES"'] : []),
        tf('init -upgrade'),
        tf('plan -out=linkerd.tfplan'),
      ],
    }),
    upgradeCrds: (install) => ({
      text: 'Apply the CRDs release alone and wait until the CRDs are served.',
      commands: [tf(`apply -target=${addresses.crdsAddress}`), waitForCrds(install)],
    }),
    upgradeControlPlane: () => ({
      text: 'Apply the rest (the control-plane release depends_on the CRDs release).',
      commands: [tf('apply'), waitForControlPlane()],
    }),
    prune: (install) => ({
      text: 'Helm deletes what the new chart no longer renders during the upgrade; confirm the release and that no drift is left.',
      commands: [`helm -n ${install.namespace} history ${install.controlPlaneReleaseName} --max 3`, tf('plan -detailed-exitcode')],
    }),
    removeCore: () => ({
      text: 'Destroy the control-plane release, then the CRDs release; then remove the construct from code.',
      commands: [
        tf(`destroy -target=${addresses.controlPlaneAddress}`),
        tf(`destroy -target=${addresses.crdsAddress}`),
        'kubectl delete namespace "$NS" --ignore-not-found',
      ],
    }),
    removeRelease: (_install, release) => [`helm -n ${release.namespace} uninstall ${release.releaseName} --wait`,
      `kubectl delete namespace ${release.namespace} --ignore-not-found`],
  };
}
