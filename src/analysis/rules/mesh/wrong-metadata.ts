import { Severity } from '../../finding';
import { annotationsOf, labelsOf } from '../../model/manifest';
import { IndexedObject, INJECT_ANNOTATION } from '../../model/mesh-index';
import { ownPodTemplates } from '../../model/policy-view';
import { Rule, RuleContext, RuleArea } from '../../rule';

/** The one config.linkerd.io key that is a label, not an annotation (the webhooks' namespaceSelector reads it). */
const WEBHOOK_LABEL = 'config.linkerd.io/admission-webhooks';
const EXPORT_LABEL = 'mirror.linkerd.io/exported';
const WORKLOAD_KINDS = new Set(['Deployment', 'StatefulSet', 'DaemonSet', 'ReplicaSet', 'Job', 'CronJob']);

function templatePath(kind: string): string {
  return kind === 'CronJob' ? 'spec.jobTemplate.spec.template.metadata' : 'spec.template.metadata';
}

/** Keys that Linkerd reads from annotations only. */
export function isLinkerdConfigKey(key: string): boolean {
  return key === INJECT_ANNOTATION || (key.startsWith('config') && CONFIG_KEY.test(key));
}

const CONFIG_KEY = /^config(\.alpha|\.beta)?\.linkerd\.io\//;

/** The Linkerd keys among a label or annotation map; undefined (nothing allocated) for the usual map without any. */
function linkerdKeys(map: Record<string, unknown>, except?: string): string[] | undefined {
  let keys: string[] | undefined;
  for (const key of Object.keys(map)) {
    if (key !== except && isLinkerdConfigKey(key)) (keys ??= []).push(key);
  }
  return keys;
}

function reportLabels(ctx: RuleContext, subject: IndexedObject, keys: string[], where: string): void {
  ctx.report(subject, `${where} has ${keys.join(', ')} as label(s); Linkerd only reads these as annotations, so they have no effect. `
    + `Move them to ${where.replace('labels', 'annotations')}.`);
}

function checkWorkloadAnnotations(ctx: RuleContext, workload: IndexedObject): void {
  const keys = linkerdKeys(annotationsOf(workload.object));
  if (keys) {
    ctx.report(workload, `metadata.annotations of the ${workload.id.kind} carries ${keys.join(', ')}; the proxy injector reads pods, so `
      + `these have no effect here. Put them on ${templatePath(workload.id.kind)}.annotations.`);
  }
}

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

/** Linkerd keys on the wrong kind of metadata or the wrong object are silently ignored. */
export const wrongMetadataRule: Rule = {
  id: 'LKD-MESH-002',
  area: RuleArea.MESH,
  severity: Severity.ERROR,
  doc: {
    title: 'Linkerd keys are on the metadata Linkerd reads (annotations on the pod template or namespace)',
    why: 'The injector reads linkerd.io/inject and config.linkerd.io/* from pod (template) and namespace annotations only. As '
      + 'labels, or as annotations on a Deployment\'s own metadata, they are ignored: the workload is not meshed or keeps '
      + 'default settings, and linkerd check flags such labels. Conversely config.linkerd.io/admission-webhooks and '
      + 'mirror.linkerd.io/exported are labels.',
    fix: 'Move the keys to spec.template.metadata.annotations (or the Namespace\'s annotations).',
    badExample: 'kind: Deployment\nmetadata:\n  annotations:\n    linkerd.io/inject: enabled',
    goodExample: 'kind: Deployment\nspec:\n  template:\n    metadata:\n      annotations:\n        linkerd.io/inject: enabled',
  },
  check(ctx) {
    for (const entry of ctx.index.objects) {
      if (entry.inventory) continue;
      const keys = linkerdKeys(labelsOf(entry.object), WEBHOOK_LABEL);
      if (keys) reportLabels(ctx, entry, keys, 'metadata.labels');
      checkSpecialKeys(ctx, entry);
      if (WORKLOAD_KINDS.has(entry.id.kind)) checkWorkloadAnnotations(ctx, entry);
    }
    for (const pod of ownPodTemplates(ctx.index)) {
      if (pod.owner.id.kind === 'Pod') continue;
      const keys = linkerdKeys(pod.labels, WEBHOOK_LABEL);
      if (keys) reportLabels(ctx, pod.owner, keys, `${templatePath(pod.owner.id.kind)}.labels`);
    }
  },
};
