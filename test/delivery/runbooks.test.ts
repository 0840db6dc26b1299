import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { Chart, Testing } from 'cdk8s';
import { controlPlaneChart } from './fixtures';
import { argoCdSteps } from '../../src/control-plane/delivery/argo-cd';
import { fluxSteps } from '../../src/control-plane/delivery/flux';
import { helmSteps } from '../../src/control-plane/delivery/helm';
import { RunbookOptions, exitRunbook, upgradeRunbook } from '../../src/control-plane/delivery/runbooks';
import { DeliverySteps } from '../../src/control-plane/delivery/steps';
import { resolveInstall } from '../../src/control-plane/install/values';

/** Runbooks from the pure builders: the Helm form's construct would run helm, which is not here. */
function runbooks(steps: DeliverySteps, options: RunbookOptions) {
  const install = resolveInstall(new Chart(Testing.app(), 'cp'), {}, { values: { identity: { externalCA: true, issuer: { scheme: 'kubernetes.io/tls' } } }, writesPrivateKey: false });
  return { upgrade: upgradeRunbook(install, steps, options), exit: exitRunbook(install, steps, options) };
}

/** Positions of each marker in the text, which must be found and increasing. */
function expectInOrder(text: string, markers: string[]): void {
  const positions = markers.map((m) => text.indexOf(m));
  markers.forEach((m, i) => expect([m, positions[i] >= 0]).toEqual([m, true]));
  expect(positions).toEqual([...positions].sort((a, b) => a - b));
}

const UPGRADE_SECTIONS = ['## 0. Before you start', '## 2. CRDs', '## 3. Control plane', '## 4. Prune', '## 5. Restart workloads in cohorts', 'linkerd check --proxy'];
const EXIT_SECTIONS = ['## 0. Variables', '## 1. Remove injection', '## 2. Restart workloads', '## 3. Verify no proxies are left', '## 4. Remove extensions', '## 5. Remove the core', '## 6. Verify'];

describe.each([
  ['Argo CD', argoCdSteps({}), ['argocd app wait linkerd-crds --sync --health', 'argocd app wait linkerd-control-plane', 'argocd app sync linkerd-control-plane --prune'],
    ['argocd app set "$PARENT_APP" --sync-policy none', 'argocd app delete linkerd-control-plane --cascade', 'argocd app delete linkerd-crds --cascade']],
  ['Flux', fluxSteps({}), ['flux reconcile helmrelease linkerd-crds -n flux-system', 'flux reconcile helmrelease linkerd-control-plane -n flux-system', 'helm -n flux-system history linkerd-control-plane'],
    ['flux suspend kustomization', 'delete helmrelease linkerd-control-plane', 'delete helmrelease linkerd-crds']],
  ['cdk8s Helm', helmSteps({}), ['kubectl apply --server-side --force-conflicts -f "$MANIFEST" -l helm.sh/chart=linkerd-crds-2026.6.3',
    'kubectl apply -f "$MANIFEST" -l \'helm.sh/chart!=linkerd-crds-2026.6.3\'', '--prune -l \'linkerd.io/control-plane-ns=linkerd,helm.sh/chart!=linkerd-crds-2026.6.3\''],
  ['kubectl delete -f "$MANIFEST" -l \'linkerd.io/control-plane-ns=linkerd', 'kubectl delete -f "$MANIFEST" -l helm.sh/chart=linkerd-crds-2026.6.3']],
])('%s runbooks', (_form, steps, upgradeCommands, exitCommands) => {
  const { upgrade } = runbooks(steps as DeliverySteps, { meshedNamespaces: ['canary', 'shop'] });
  const { exit } = runbooks(steps as DeliverySteps, { meshedNamespaces: ['canary', 'shop'], extensions: ['viz', 'multicluster'] });

  test('upgrade: CRDs → control plane → prune → restart in cohorts → linkerd check --proxy, with this form\'s commands', () => {
    expectInOrder(upgrade, UPGRADE_SECTIONS);
    expectInOrder(upgrade, upgradeCommands as string[]);
    expect(upgrade).toContain('# Upgrade Linkerd to edge-26.6.3 (charts 2026.6.3)');
    expect(upgrade).toContain('LINKERD2_VERSION=edge-26.6.3 sh');
    expect(upgrade).toContain('kubectl wait --for=condition=Established crd -l helm.sh/chart=linkerd-crds-2026.6.3');
    expectInOrder(upgrade, ['COHORT=canary', 'linkerd check --proxy --namespace "$COHORT"', 'COHORT=shop', 'grep -v " edge-26.6.3$"']);
  });

  test('exit: injection off → restart → no proxies → extensions → core, never the Gateway API CRDs', () => {
    expectInOrder(exit, EXIT_SECTIONS);
    expectInOrder(exit, exitCommands as string[]);
    expectInOrder(exit, ['kubectl annotate namespace canary linkerd.io/inject-', 'linkerd viz uninstall', 'linkerd multicluster uninstall']);
    expect(exit).toContain('**Never delete the Gateway API CRDs**');
    expect(exit).toContain('kubectl get crd httproutes.gateway.networking.k8s.io grpcroutes.gateway.networking.k8s.io  # must still exist');
    expect(exit).not.toMatch(/delete crd[^\n]*gateway\.networking\.k8s\.io/);
  });
});

describe('runbook files', () => {
  test('the construct\'s runbooks are the pure builders\' for its form', () => {
    const { cp } = controlPlaneChart();
    expect(cp.upgradeRunbook({ meshedNamespaces: ['a'] })).toBe(runbooks(argoCdSteps({}), { meshedNamespaces: ['a'] }).upgrade);
  });

  test('writeRunbooks writes the three files and returns their paths', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'runbooks-'));
    const { cp } = controlPlaneChart();
    const files = cp.writeRunbooks(path.join(dir, 'nested'));
    expect(files.map((f) => path.basename(f))).toEqual(['linkerd-upgrade.md', 'linkerd-exit.md', 'linkerd-identity-troubleshooting.md']);
    expect(fs.readFileSync(files[0], 'utf8')).toBe(cp.upgradeRunbook());
    expect(fs.readFileSync(files[1], 'utf8')).toBe(cp.exitRunbook());
    expect(fs.readFileSync(files[2], 'utf8')).toBe(cp.troubleshootingRunbook());
  });

  test('without namespaces, the cohorts are a placeholder; the defaults name viz', () => {
    const { cp } = controlPlaneChart({ namespace: 'mesh' });
    expect(cp.upgradeRunbook()).toContain('COHORT=<meshed-namespace>');
    expect(cp.exitRunbook()).toContain('linkerd viz uninstall');
    expect(cp.exitRunbook()).toContain('grep -v "^mesh/"');
  });
});
