import { LABELS_GO } from '../../../core/linkerd-annotations.generated';
import { chartDefault, isProxyConfigKey, KeySite, proxyKeyStatus, READ_KEYS, sameKeyValue } from '../../../core/proxy-annotations';
import { ADMISSION_WEBHOOKS_LABEL, POLICY_GROUP } from '../../../core/vocabulary';
import { hasOwn, isRecord } from '../../../util/json';
import { Severity } from '../../finding';
import { KubeObject, MetadataMap, NO_METADATA, annotationOf, annotationsOf, labelsOf, podTemplateMetadataPath, podTemplateOf, textOf } from '../../model/manifest';
import { IndexedObject } from '../../model/mesh-index';
import { ownPodTemplates } from '../../model/pod-templates';
import { Rule, RuleContext, RuleArea } from '../../rule';

/** The one config.linkerd.io key that is a label, not an annotation (the webhooks' namespaceSelector reads it). */
const WEBHOOK_LABEL = ADMISSION_WEBHOOKS_LABEL;
const EXPORT_LABEL = LABELS_GO.DefaultExportedServiceSelector;
const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob']);

/** Keys that Linkerd reads from annotations only. */
export function isLinkerdConfigKey(key: string): boolean {
  return isProxyConfigKey(key);
}

/**
 * The Linkerd keys among a label or annotation map; undefined (nothing allocated) for the usual map without any. Run on
 * two maps of every object: for-in with an own-key test lists what Object.keys would, without building that array.
 */
function linkerdKeys(map: MetadataMap, except?: string): string[] | undefined {
  let keys: string[] | undefined;
  for (const key in map) {
    if (hasOwn(map, key) && key !== except && isLinkerdConfigKey(key)) (keys ??= []).push(key);
  }
  return keys;
}

/**
 * Keys set as labels, judged against the annotations beside them: a label the annotations repeat loses nothing
 * (harmless); one they set otherwise misleads, since the annotation applies (warning); one they lack is lost (error),
 * unless the pods get its value anyway (from the namespace or the chart's default).
 */
function reportLabels(
  ctx: RuleContext, subject: IndexedObject, labels: MetadataMap, linkerdLabels: string[], annotations: MetadataMap, where: string,
): void {
  const annotationsPath = where.replace('labels', 'annotations');
  const missing: string[] = [];
  const different: string[] = [];
  for (const key of linkerdLabels) {
    // Values as Kubernetes reads them (textOf): one of another type is LKD-SCHEMA-002's.
    const label = textOf(labels, key);
    if (label === undefined) continue;
    const annotation = textOf(annotations, key);
    if (annotation === undefined) {
      if (!sameAsInherited(ctx, subject, key, label)) missing.push(key);
    } else if (!sameKeyValue(annotation, label)) {
      different.push(key);
    }
  }
  if (missing.length > 0) {
    ctx.report(subject, `${where} has ${missing.join(', ')} as label(s); Linkerd only reads these as annotations, so they have no effect. `
      + `Move them to ${annotationsPath}.`);
  }
  if (different.length > 0) {
    ctx.report(subject, `${where} has ${different.map((k) => `${k} (${JSON.stringify(textOf(labels, k))})`).join(', ')} as label(s), and `
      + `${annotationsPath} sets them otherwise; Linkerd reads only the annotations, so the label misleads. Remove it or make both agree.`,
    { severity: Severity.WARNING });
  }
}

/** The pod template metadata of a workload (CronJob: its job template's), or undefined. */
function templateMetadata(object: KubeObject): Record<string, unknown> | undefined {
  const metadata = podTemplateOf(object)?.metadata;
  return isRecord(metadata) ? metadata : undefined;
}

/** Kinds with a pod template: the known workloads, and any other object whose spec.template has a pod spec (Argo Rollouts, ...). */
function hasPodTemplate(entry: IndexedObject): boolean {
  if (WORKLOAD_KINDS.has(entry.id.kind)) return true;
  const template = (entry.object as any)?.spec?.template;
  return template !== null && typeof template === 'object' && typeof template.spec === 'object' && template.spec !== null;
}

/**
 * A workload's own metadata is never read: the injector admits Pods, whose metadata is the pod template's
 * (controller/proxy-injector/webhook.go Inject, pkg/inject/inject.go GetAnnotationOverrides). A key there matters only
 * when the template does not say the same: missing from the template the user's intent is lost (error); a different
 * value on the template is what applies (warning: the workload's value misleads).
 */
function checkWorkloadAnnotations(ctx: RuleContext, workload: IndexedObject): void {
  checkIgnoredAnnotations(ctx, workload, annotationsOf(workload.object), 'metadata.annotations');
  // A CronJob's job template metadata lands on its Jobs, not on their pods: unread as well.
  if (workload.id.kind === 'CronJob') {
    const jobMetadata = (workload.object as any)?.spec?.jobTemplate?.metadata?.annotations;
    if (jobMetadata !== null && typeof jobMetadata === 'object' && !Array.isArray(jobMetadata)) {
      checkIgnoredAnnotations(ctx, workload, jobMetadata, 'spec.jobTemplate.metadata.annotations');
    }
  }
}

function checkIgnoredAnnotations(ctx: RuleContext, workload: IndexedObject, own: MetadataMap, where: string): void {
  const keys = linkerdKeys(own);
  if (!keys) return;
  const template = templateMetadata(workload.object);
  const templateAnnotations: MetadataMap = isRecord(template?.annotations) ? template.annotations : NO_METADATA;
  const missing: string[] = [];
  const different: string[] = [];
  for (const key of keys) {
    // Values as Kubernetes reads them (textOf): one of another type is LKD-SCHEMA-002's, and no value here.
    const value = textOf(own, key);
    if (value === undefined) continue;
    const onTemplate = textOf(templateAnnotations, key);
    if (onTemplate === undefined) {
      if (!sameAsInherited(ctx, workload, key, value)) missing.push(key);
    } else if (!sameKeyValue(onTemplate, value)) {
      different.push(`${key} (${JSON.stringify(value)} here, ${JSON.stringify(onTemplate)} on the template)`);
    }
  }
  const path = podTemplateMetadataPath(workload.id.kind);
  if (missing.length > 0) {
    ctx.report(workload, `${where} of the ${workload.id.kind} carries ${missing.join(', ')}; the proxy injector reads pods, so `
      + `these have no effect here. Put them on ${path}.annotations.`);
  }
  if (different.length > 0) {
    ctx.report(workload, `${where} of the ${workload.id.kind} carries ${different.join(', ')}; only ${path}.annotations is read, `
      + 'so the template\'s value applies and this one is ignored. Remove it or make both agree.', { severity: Severity.WARNING });
  }
}

/**
 * True when the pods get this value anyway: from their Namespace (for keys the injector copies from it), else from the
 * chart's default (linkerd viz install writes config.linkerd.io/proxy-await: enabled on its Deployments only, which
 * is what every pod gets by default). The ignored key then loses nothing.
 */
function sameAsInherited(ctx: RuleContext, subject: IndexedObject, key: string, value: string): boolean {
  const status = proxyKeyStatus(key);
  if (status.kind !== 'read') return false;
  // A Namespace's own label is judged against the chart alone: its annotations were compared already.
  const isNamespace = subject.group === '' && subject.id.kind === 'Namespace';
  const ns = !isNamespace && subject.id.namespace !== undefined ? ctx.index.namespace(subject.id.namespace) : undefined;
  if (status.entry.sites.includes(KeySite.NAMESPACE) && ns) {
    const inherited = annotationOf(ns.object, key);
    if (inherited !== undefined) return sameKeyValue(inherited, value);
  }
  // Nothing injects a pod whose namespace does not ask for it (report.go disabledByAnnotation), so "disabled" is
  // what its pods get anyway, where the analysis has the Namespace.
  if (key === LABELS_GO.ProxyInjectAnnotation) return value === 'disabled' && (ns !== undefined || isNamespace);
  // The cluster's default policy, as the install or the options set it (the chart's is all-unauthenticated).
  if (key === LABELS_GO.ProxyDefaultInboundPolicyAnnotation) return value === ctx.context.defaultInboundPolicy;
  const fallback = chartDefault(key);
  return fallback !== undefined && sameKeyValue(fallback, value);
}

/** What Linkerd reads default-inbound-policy from, for the message on objects it does not read it from. */
const DEFAULT_POLICY_READERS = 'Linkerd reads it from Pod (pod template) and ExternalWorkload annotations '
  + '(policy-controller inbound/workload.rs Settings::from_metadata) and copies a Namespace\'s to the pods it injects';

/**
 * Proxy-config keys on an object Linkerd reads no annotations of: a Server, a route, a ConfigMap... Namespaces, Pods and
 * workloads are handled above, Services by LKD-MESH-003 (only opaque-ports is read there; linkerd.io/inject on a
 * Service is harmless and Linkerd's own charts write it), and ExternalWorkloads carry only the policy controller's keys.
 */
function checkUnreadObject(ctx: RuleContext, entry: IndexedObject): void {
  const kind = entry.id.kind;
  if (kind === 'Namespace' || kind === 'Service' || kind === 'Pod' || hasPodTemplate(entry)) return;
  let keys = linkerdKeys(annotationsOf(entry.object), WEBHOOK_LABEL);
  if (keys && kind === 'EgressNetwork' && entry.group === POLICY_GROUP) keys = keys.filter((k) => !readOn(k, KeySite.EGRESS_NETWORK));
  if (!keys || keys.length === 0) return;
  if (kind === 'ExternalWorkload') {
    const unread = keys.filter((k) => !readOn(k, KeySite.EXTERNAL_WORKLOAD));
    if (unread.length > 0) {
      ctx.report(entry, `metadata.annotations of the ExternalWorkload carries ${unread.join(', ')}; on an ExternalWorkload Linkerd reads only `
        + `${EXTERNAL_WORKLOAD_KEYS.join(', ')} (policy-controller inbound/workload.rs Settings::from_metadata). Configure its proxy where it runs.`,
      { severity: Severity.WARNING });
    }
    return;
  }
  const hint = keys.includes(LABELS_GO.ProxyDefaultInboundPolicyAnnotation)
    ? ` ${DEFAULT_POLICY_READERS}; ${kind === 'Server' ? 'for a Server, what is allowed when no authorization matches is its spec.accessPolicy (Server v1beta3; deny when unset)' : 'put it there'}.`
    : ' Put proxy settings on the pod template (spec.template.metadata.annotations) or the Namespace.';
  ctx.report(entry, `metadata.annotations of the ${kind} carries ${keys.join(', ')}; Linkerd does not read these from a ${kind}, so they have no effect.${hint}`);
}

function readOn(key: string, site: KeySite): boolean {
  const status = proxyKeyStatus(key);
  return status.kind === 'read' && status.entry.sites.includes(site);
}

const EXTERNAL_WORKLOAD_KEYS = READ_KEYS.filter((k) => k.sites.includes(KeySite.EXTERNAL_WORKLOAD)).map((k) => k.key);

function checkSpecialKeys(ctx: RuleContext, entry: IndexedObject): void {
  const kind = entry.id.kind;
  if (kind !== 'Namespace' && kind !== 'Service') return;
  const annotations = annotationsOf(entry.object);
  if (kind === 'Namespace' && annotations[WEBHOOK_LABEL] !== undefined) {
    ctx.report(entry, `${WEBHOOK_LABEL} is an annotation here; the webhooks' namespaceSelector reads it as a LABEL. Move it to metadata.labels.`);
  }
  if (kind === 'Service' && annotations[EXPORT_LABEL] !== undefined) {
    ctx.report(entry, `${EXPORT_LABEL} is an annotation here; multicluster mirroring selects Services by this LABEL. Move it to metadata.labels.`);
  }
}

/**
 * Whether the object has any map this rule reads: labels or annotations in its metadata (a CronJob's job template has
 * metadata of its own). Most objects of a large output have neither; asking once spares each of them the label,
 * annotation, special-key and pod-template checks, which would all find nothing.
 */
function hasMetadataMaps(entry: IndexedObject): boolean {
  const metadata = entry.object.metadata;
  return entry.id.kind === 'CronJob' || isRecord(metadata?.labels) || isRecord(metadata?.annotations);
}

/** Linkerd keys on the wrong kind of metadata or the wrong object are silently ignored. */
export const wrongMetadataRule: Rule = {
  id: 'LKD-MESH-002',
  area: RuleArea.MESH,
  severity: Severity.ERROR,
  doc: {
    certainty: 'Ignored: the injector reads linkerd.io/inject and config.linkerd.io/* only from the pod\'s and the '
      + 'namespace\'s annotations (pkg/inject/inject.go GetAnnotationOverrides, AppendNamespaceAnnotations), so keys '
      + 'elsewhere do nothing. Cases where another object\'s copy may still reach the pod are warnings.',
    title: 'Linkerd keys are on the metadata Linkerd reads (annotations on the pod template or namespace)',
    why: 'The proxy injector is a webhook on Pod and Service creation (controller/proxy-injector/webhook.go Inject): it reads '
      + 'linkerd.io/inject and config.linkerd.io/* from the POD\'s annotations (pkg/inject/inject.go GetAnnotationOverrides, '
      + 'ApplyAnnotationOverrides; report.go disabledByAnnotation) and copies a Namespace\'s values to pods that lack them '
      + '(AppendNamespaceAnnotations). The policy controller reads config.linkerd.io/default-inbound-policy, opaque-ports and '
      + 'proxy-require-identity-inbound-ports from Pod and ExternalWorkload annotations (policy-controller/k8s/index/src/inbound/'
      + 'workload.rs Settings::from_metadata, called from inbound/index.rs for Pods and ExternalWorkloads), opaque-ports also from '
      + 'Services (outbound/index.rs); the cluster default comes from the chart (defaults.rs). Nothing reads them from a '
      + 'Deployment\'s own metadata, a Server, a route or any other object, nor as labels. On a workload\'s metadata a key is '
      + 'reported only when its pod template does not carry the same value: missing there, the setting is lost (error) unless '
      + 'the pods get that value anyway from their Namespace or the chart\'s default (linkerd viz install writes '
      + 'config.linkerd.io/proxy-await: enabled on its Deployments only, which is the default: harmless, not reported; a '
      + 'control plane installed with other defaults is not modelled here); different there, the template wins and the '
      + 'workload\'s value misleads (warning); the same on both is harmless. A key set as a label is judged the same way against the '
      + 'annotations beside it. On an ExternalWorkload, keys other than those three are a warning. Conversely '
      + 'config.linkerd.io/admission-webhooks and mirror.linkerd.io/exported are labels.',
    fix: 'Move the keys to spec.template.metadata.annotations (or the Namespace\'s annotations); on a Server, set '
      + 'spec.accessPolicy (or authorize the traffic) instead of a default-inbound-policy annotation.',
    linkerdSource: 'controller/proxy-injector/webhook.go Inject; pkg/inject/inject.go (conf *ResourceConfig) '
      + 'GetAnnotationOverrides, ApplyAnnotationOverrides, AppendNamespaceAnnotations; '
      + 'policy-controller/k8s/index/src/inbound/workload.rs Settings::from_metadata',
    badExample: 'kind: Deployment\nmetadata:\n  annotations:\n    linkerd.io/inject: enabled',
    goodExample: 'kind: Deployment\nspec:\n  template:\n    metadata:\n      annotations:\n        linkerd.io/inject: enabled',
  },
  check(ctx) {
    for (const entry of ctx.index.objects) {
      if (entry.inventory || !hasMetadataMaps(entry)) continue;
      const labels = labelsOf(entry.object);
      const keys = linkerdKeys(labels, WEBHOOK_LABEL);
      if (keys) reportLabels(ctx, entry, labels, keys, annotationsOf(entry.object), 'metadata.labels');
      checkSpecialKeys(ctx, entry);
      if (hasPodTemplate(entry)) checkWorkloadAnnotations(ctx, entry);
      else checkUnreadObject(ctx, entry);
    }
    for (const pod of ownPodTemplates(ctx.index)) {
      if (pod.owner.id.kind === 'Pod') continue;
      const keys = linkerdKeys(pod.labels, WEBHOOK_LABEL);
      if (keys) reportLabels(ctx, pod.owner, pod.labels, keys, pod.annotations, `${podTemplateMetadataPath(pod.owner.id.kind)}.labels`);
    }
  },
};
