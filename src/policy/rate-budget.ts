/**
 * A cluster-wide request budget turned into the per-proxy rate an HTTPLocalRateLimitPolicy takes: each proxy behind the
 * Server enforces the rate on its own (LKD-CAP-002), so the rate is the budget divided by the replicas.
 */
import * as kplus from 'cdk8s-plus-28';
import { IConstruct } from 'constructs';
import { MeshedDeployment } from '../workloads/meshed-deployment';

/** How to divide a budget among the replicas of a workload a HorizontalPodAutoscaler scales. */
export enum AutoscaledBudget {
  /** Divide by maxReplicas: the cluster never accepts more than the budget, and less while fewer replicas run. */
  HOLD_AT_MAX_REPLICAS = 'max',
  /** Divide by minReplicas: the budget holds at minReplicas and is exceeded (up to max/min times) as it scales out. */
  REACH_AT_MIN_REPLICAS = 'min',
}

/** A cluster-wide budget for all clients together, divided among the proxies of the workloads behind the Server. */
export interface ClusterRateBudget {
  /** Requests per second all clients together may send to all replicas. */
  readonly totalRequestsPerSecond: number;
  /** The workloads the Server selects: their replicas divide the budget. */
  readonly workloads: MeshedDeployment[];
  /**
   * For workloads a HorizontalPodAutoscaler scales: which replica bound the budget is divided by.
   * @default - refused: an autoscaled workload's capacity varies, so say which bound the budget must hold at
   */
  readonly autoscaled?: AutoscaledBudget;
}

/** The replicas of one workload: its count, or the autoscaler's bounds (kplus HorizontalPodAutoscaler targeting it). */
function replicas(scope: IConstruct, workload: MeshedDeployment): { min: number; max: number; autoscaler?: string } {
  const hpa = scope.node.root.node.findAll().find((c): c is kplus.HorizontalPodAutoscaler =>
    c instanceof kplus.HorizontalPodAutoscaler && c.target === workload.deployment);
  if (hpa) return { min: hpa.minReplicas, max: hpa.maxReplicas, autoscaler: hpa.name };
  const n = workload.deployment.replicas ?? 1;
  return { min: n, max: n };
}

/** The per-proxy rate, or the problem (a coded message) when the budget cannot be divided as asked. */
export function perProxyRate(scope: IConstruct, budget: ClusterRateBudget): { rate?: number; problem?: string } {
  const counts = budget.workloads.map((w) => ({ w, r: replicas(scope, w) }));
  const scaled = counts.filter((c) => c.r.autoscaler !== undefined);
  if (scaled.length > 0 && budget.autoscaled === undefined) {
    return {
      problem: `LKD-CAP-002: clusterBudget cannot be divided by the replicas of ${scaled.map((c) => `${c.w.name} (HorizontalPodAutoscaler ${c.r.autoscaler}: `
        + `${c.r.min}..${c.r.max})`).join(', ')}: each proxy enforces the rate, so the cluster-wide capacity moves with the autoscaler. `
        + 'Fix: set clusterBudget.autoscaled to AutoscaledBudget.HOLD_AT_MAX_REPLICAS or AutoscaledBudget.REACH_AT_MIN_REPLICAS.',
    };
  }
  const atMax = budget.autoscaled !== AutoscaledBudget.REACH_AT_MIN_REPLICAS;
  const proxies = counts.reduce((n, c) => n + (atMax ? c.r.max : c.r.min), 0);
  const rate = proxies === 0 ? 0 : Math.floor(budget.totalRequestsPerSecond / proxies);
  if (rate < 1) {
    return {
      problem: `LKD-CAP-002: clusterBudget ${budget.totalRequestsPerSecond} rps divided among ${proxies} proxies is below 1 request per second `
        + 'per proxy. Fix: raise the budget or run fewer replicas.',
    };
  }
  return { rate };
}
