import { valueAt } from '../../../core/helm-values';
import { PROXY_VERSION_KEY } from '../../../core/image-values';
import { LinkerdVersion, chartVersionProblem, edgeAppVersion } from '../../../core/versions';
import { Severity } from '../../finding';
import { ChartInstall, controlPlaneInstalls } from '../../model/installs';
import { annotationsOf } from '../../model/manifest';
import { Rule, RuleArea, RuleContext } from '../../rule';

export const PROXY_VERSION_ANNOTATION = 'config.linkerd.io/proxy-version';

interface ControlPlaneVersion {
  readonly version: string;
  readonly origin: string;
}

/** The version a control-plane install runs: its linkerdVersion value, else what its exact chart version publishes. */
function installVersion(install: ChartInstall): string | undefined {
  const explicit = valueAt(install.values, 'linkerdVersion');
  if (typeof explicit === 'string' && explicit !== '' && explicit !== 'linkerdVersionValue') return explicit;
  if (install.chartVersion && !chartVersionProblem(install.chartVersion)) return edgeAppVersion(install.chartVersion.trim());
  return undefined;
}

/** The control plane this output runs with: from its own install if it has one, else the release this library targets. */
function controlPlaneVersion(ctx: RuleContext): ControlPlaneVersion {
  for (const install of controlPlaneInstalls(ctx.index)) {
    const version = installVersion(install);
    if (version) return { version, origin: `${install.source} ${install.subject.id.name}` };
  }
  return { version: LinkerdVersion.V2_20.appVersion, origin: 'Linkerd 2.20, the release this library targets' };
}

function checkAnnotations(ctx: RuleContext, cp: ControlPlaneVersion): void {
  for (const ns of ctx.index.own('', 'Namespace')) {
    const pinned = annotationsOf(ns.object)[PROXY_VERSION_ANNOTATION];
    if (pinned !== undefined && pinned !== cp.version) {
      ctx.report(ns, `namespace annotation ${PROXY_VERSION_ANNOTATION}: ${pinned} injects proxies of another version than the control plane `
        + `(${cp.version}, from ${cp.origin}); every pod in it skews.`);
    }
  }
  for (const pod of ctx.index.podTemplates) {
    const pinned = pod.annotations[PROXY_VERSION_ANNOTATION];
    if (pod.owner.inventory || pinned === undefined || pinned === cp.version) continue;
    ctx.report(pod.owner, `pod template annotation ${PROXY_VERSION_ANNOTATION}: ${pinned} differs from the control plane (${cp.version}, from ${cp.origin}).`);
  }
}

function checkValues(ctx: RuleContext, cp: ControlPlaneVersion): void {
  for (const install of controlPlaneInstalls(ctx.index)) {
    const pinned = valueAt(install.values, PROXY_VERSION_KEY);
    if (typeof pinned !== 'string' || pinned === '' || pinned === cp.version) continue;
    ctx.report(install.subject, `${install.source} sets ${PROXY_VERSION_KEY}: ${pinned}, but the control plane runs ${cp.version} (from ${cp.origin}); `
      + 'every injected proxy would skew from it.');
  }
}

/** Proxies should run the control plane's version: `linkerd check` warns on skew, and skew is untested territory. */
export const proxyVersionSkew: Rule = {
  id: 'LKD-VER-002',
  area: RuleArea.VERSION,
  severity: Severity.WARNING,
  doc: {
    title: 'Proxy version overrides match the control-plane version',
    why: 'The injector normally gives every pod the control plane\'s proxy. A config.linkerd.io/proxy-version annotation or a '
      + 'proxy.image.version value pins another one; linkerd check reports the skew, and the combination is untested, so upgrades '
      + 'leave those pods behind.',
    fix: 'Remove the override, or set it to the control plane\'s version, and restart the affected workloads.',
    linkerdSource: 'pkg/inject/inject.go ApplyAnnotationOverrides (config.linkerd.io/proxy-version); '
      + 'pkg/healthcheck/healthcheck.go CheckProxyVersionsUpToDate, CheckIfProxyVersionsMatchWithCLI',
    badExample: 'spec:\n  template:\n    metadata:\n      annotations:\n        config.linkerd.io/proxy-version: edge-25.1.1',
    goodExample: 'spec:\n  template:\n    metadata:\n      annotations: {}   # the injector uses the control plane\'s proxy version',
  },
  check(ctx) {
    const cp = controlPlaneVersion(ctx);
    checkAnnotations(ctx, cp);
    checkValues(ctx, cp);
  },
};
