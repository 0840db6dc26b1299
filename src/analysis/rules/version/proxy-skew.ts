import { valueAt } from '../../../core/helm-values';
import { PROXY_VERSION_KEY } from '../../../core/image-values';
import { LinkerdVersion, chartVersionProblem, edgeAppVersion } from '../../../core/versions';
import { PROXY_VERSION_ANNOTATION } from '../../../core/vocabulary';
import { Severity } from '../../finding';
import { ChartInstall, controlPlaneInstalls } from '../../model/installs';
import { annotationOf, textOf } from '../../model/manifest';
import { cniEnabledOf } from '../../model/proxy-settings';
import { Rule, RuleArea, RuleContext } from '../../rule';


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

/**
 * Whether a proxy version predates the proxy image that carries proxy-init: since edge-25.11.3 (linkerd2 #14577) the
 * injector runs linkerd-init from the proxy image (`/usr/lib/linkerd/linkerd2-proxy-init`, charts/partials/templates/
 * _proxy-init.tpl), which older proxy images lack. Undefined for a version this cannot read.
 */
export function predatesCombinedProxyImage(version: string): boolean | undefined {
  const edge = /^edge-(\d+)\.(\d+)\.(\d+)$/.exec(version.trim());
  if (edge) {
    const [y, m, n] = edge.slice(1).map(Number);
    return y < 25 || (y === 25 && (m < 11 || (m === 11 && n < 3)));
  }
  const stable = /^(?:stable|enterprise|version)-2\.(\d+)(?:\.\d+)*$/.exec(version.trim());
  return stable ? Number(stable[1]) < 20 : undefined;
}

/** What an old pinned version does to the pods it reaches, and how sure that is. */
function initFailure(ctx: RuleContext, pinned: string): { text: string; severity: Severity } | undefined {
  if (predatesCombinedProxyImage(pinned) !== true) return undefined;
  const cni = cniEnabledOf(ctx.index, ctx.context);
  if (cni.enabled) return undefined;
  const text = ' The injector of Linkerd 2.20 runs linkerd-init from the proxy image (/usr/lib/linkerd/linkerd2-proxy-init), which proxy '
    + `images before edge-25.11.3 do not have: without the CNI plugin (${cni.origin}) the init container fails and the pods never start.`;
  return { text, severity: cni.known ? Severity.ERROR : Severity.WARNING };
}

function checkAnnotations(ctx: RuleContext, cp: ControlPlaneVersion): void {
  for (const ns of ctx.index.own('', 'Namespace')) {
    const pinned = annotationOf(ns.object, PROXY_VERSION_ANNOTATION);
    if (pinned !== undefined && pinned !== cp.version) {
      const failure = initFailure(ctx, pinned);
      ctx.report(ns, `namespace annotation ${PROXY_VERSION_ANNOTATION}: ${pinned} injects proxies of another version than the control plane `
        + `(${cp.version}, from ${cp.origin}); every pod in it skews.${failure?.text ?? ''}`, failure ? { severity: failure.severity } : undefined);
    }
  }
  for (const pod of ctx.index.podTemplates) {
    const pinned = textOf(pod.annotations, PROXY_VERSION_ANNOTATION);
    if (pod.owner.inventory || pinned === undefined || pinned === cp.version) continue;
    const failure = initFailure(ctx, pinned);
    ctx.report(pod.owner, `pod template annotation ${PROXY_VERSION_ANNOTATION}: ${pinned} differs from the control plane (${cp.version}, from ${cp.origin}).`
      + `${failure?.text ?? ''}`, failure ? { severity: failure.severity } : undefined);
  }
}

function checkValues(ctx: RuleContext, cp: ControlPlaneVersion): void {
  for (const install of controlPlaneInstalls(ctx.index)) {
    const pinned = valueAt(install.values, PROXY_VERSION_KEY);
    if (typeof pinned !== 'string' || pinned === '' || pinned === cp.version) continue;
    const failure = initFailure(ctx, pinned);
    ctx.report(install.subject, `${install.source} sets ${PROXY_VERSION_KEY}: ${pinned}, but the control plane runs ${cp.version} (from ${cp.origin}); `
      + `every injected proxy would skew from it.${failure?.text ?? ''}`, failure ? { severity: failure.severity } : undefined);
  }
}

/** Proxies should run the control plane's version: `linkerd check` warns on skew, and skew is untested territory. */
export const proxyVersionSkew: Rule = {
  id: 'LKD-VER-002',
  area: RuleArea.VERSION,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: the control-plane version the cluster actually runs, and whether the skew is deliberate during '
      + 'an upgrade (pkg/healthcheck/healthcheck.go CheckProxyVersionsUpToDate).',
    title: 'Proxy version overrides match the control-plane version',
    why: 'The injector normally gives every pod the control plane\'s proxy. A config.linkerd.io/proxy-version annotation or a '
      + 'proxy.image.version value pins another one; linkerd check reports the skew, and the combination is untested, so upgrades '
      + 'leave those pods behind. A version before edge-25.11.3 (stable 2.19 and older) breaks the pods outright without the CNI '
      + 'plugin: the 2.20 injector runs linkerd-init from the proxy image, which only carries proxy-init since then (an error '
      + 'where cniEnabled is known to be false).',
    fix: 'Remove the override, or set it to the control plane\'s version, and restart the affected workloads.',
    linkerdSource: 'pkg/inject/inject.go ApplyAnnotationOverrides (config.linkerd.io/proxy-version); '
      + 'charts/partials/templates/_proxy-init.tpl (linkerd-init from the proxy image); '
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
