/** The ways this library can deliver the control plane (kept apart so every form module can name them). */

/** The delivery forms. */
export enum DeliveryForm {
  /** cdk8s renders the charts with `helm template` at synth; the output is applied with kubectl. */
  HELM = 'helm',
  /** Argo CD Applications that install the charts. */
  ARGO_CD = 'argo-cd',
  /** A Flux HelmRepository and HelmReleases that install the charts. */
  FLUX = 'flux',
  /** Terraform `helm_release` resources (the `cdk8s-linkerd/lib/cdktf` entry point). */
  TERRAFORM = 'terraform',
}
