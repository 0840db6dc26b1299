/**
 * How many pods of a workload run: its replicas, or the range a HorizontalPodAutoscaler scales it in. Kubernetes facts
 * (apps/v1 `spec.replicas` defaults to 1; autoscaling/v2 `spec.minReplicas` defaults to 1, `spec.maxReplicas` is
 * required; a DaemonSet runs one pod per eligible node), read once here for every check that multiplies by replicas.
 */
import { ResourceId } from './manifest';
import { IndexedObject, MeshIndex, PodTemplate } from './mesh-index';
import { AnalysisContext } from '../options';

export interface ReplicaRange {
  readonly min: number;
  /** Equal to min for a fixed count; undefined when the count cannot be known here (a DaemonSet without the node count). */
  readonly max?: number;
  /** Where the count comes from, in words (`2 replicas`, `HorizontalPodAutoscaler shop/orders: 2..10 replicas`). */
  readonly origin: string;
  /** The autoscaler that scales the workload, when one does. */
  readonly autoscaler?: ResourceId;
}

const SCALED_KINDS = new Set(['Deployment', 'StatefulSet', 'ReplicaSet', 'ReplicationController']);

function whole(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 ? value : fallback;
}

/** The HorizontalPodAutoscaler (autoscaling group) in the workload's namespace whose scaleTargetRef names it. */
function autoscalerOf(index: MeshIndex, owner: IndexedObject): IndexedObject | undefined {
  return index.list('autoscaling', 'HorizontalPodAutoscaler').find((hpa) => {
    const target = hpa.object.spec?.scaleTargetRef;
    return hpa.id.namespace === owner.id.namespace && target?.kind === owner.id.kind && target?.name === owner.id.name;
  });
}

const plural = (n: number) => `${n} ${n === 1 ? 'replica' : 'replicas'}`;

/** The pods a workload runs. */
export function replicasOf(index: MeshIndex, context: AnalysisContext, pod: PodTemplate): ReplicaRange {
  const owner = pod.owner;
  const kind = owner.id.kind;
  if (SCALED_KINDS.has(kind)) {
    const hpa = autoscalerOf(index, owner);
    if (hpa) {
      const min = Math.max(1, whole(hpa.object.spec?.minReplicas, 1));
      const max = Math.max(min, whole(hpa.object.spec?.maxReplicas, min));
      return { min, max, autoscaler: hpa.id, origin: `HorizontalPodAutoscaler ${hpa.id.namespace}/${hpa.id.name}: ${min}..${max} replicas` };
    }
    const n = whole(owner.object.spec?.replicas, 1);
    return { min: n, max: n, origin: plural(n) };
  }
  if (kind === 'DaemonSet') {
    return context.nodeCount !== undefined
      ? { min: context.nodeCount, max: context.nodeCount, origin: `one per node, ${context.nodeCount} nodes` }
      : { min: 1, origin: 'one per node, and the node count is not known (declare nodeCount)' };
  }
  if (kind === 'Job' || kind === 'CronJob') {
    const n = Math.max(1, whole((kind === 'CronJob' ? owner.object.spec?.jobTemplate?.spec : owner.object.spec)?.parallelism, 1));
    return { min: n, max: n, origin: `parallelism ${n}` };
  }
  return { min: 1, max: 1, origin: plural(1) };
}
