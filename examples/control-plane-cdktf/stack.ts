/**
 * The same pinned Linkerd install as Terraform helm_release resources, through the CDKTF entry point. CDKTF is
 * archived upstream (2025-12-10); this stays on cdktf 0.21 and @cdktf/provider-helm 12.1.2, the last releases.
 */
import * as fs from 'fs';
import * as path from 'path';
import { HelmProvider } from '@cdktf/provider-helm/lib/provider';
import { App, TerraformStack } from 'cdktf';
import { Construct } from 'constructs';
import * as yaml from 'js-yaml';
import { LinkerdHelmReleases } from '../../src/cdktf';
import { LinkerdIdentity } from '../../src/control-plane/identity';

export const STACK_NAME = 'linkerd';
export const PREREQUISITES_FILE = 'linkerd-prerequisites.k8s.yaml';

export class LinkerdStack extends TerraformStack {
  public readonly linkerd: LinkerdHelmReleases;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const provider = new HelmProvider(this, 'helm', { kubernetes: { configPath: '~/.kube/config' } });
    this.linkerd = new LinkerdHelmReleases(this, 'Linkerd', {
      identity: LinkerdIdentity.fromCertManager(),
      highAvailability: true,
      kubernetesVersion: '1.31',
      gatewayApiVersion: 'v1.2.1',
      provider,
    });
  }
}

/**
 * Synthesizes the stack (cdktf App, no terraform binary), the Kubernetes objects Terraform's helm provider cannot
 * apply (namespace, cert-manager and trust-manager objects), and the runbooks; returns the files written.
 */
export function synthesize(outdir: string): string[] {
  const app = new App({ outdir });
  const stack = new LinkerdStack(app, STACK_NAME);
  app.synth();
  const prerequisites = path.join(outdir, PREREQUISITES_FILE);
  fs.writeFileSync(prerequisites, stack.linkerd.prerequisiteManifests().map((m) => yaml.dump(m, { noRefs: true, lineWidth: -1 })).join('---\n'));
  const runbooks = stack.linkerd.writeRunbooks(path.join(outdir, 'runbooks'));
  return [path.join(outdir, 'stacks', STACK_NAME, 'cdk.tf.json'), prerequisites, ...runbooks];
}
