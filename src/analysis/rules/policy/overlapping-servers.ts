import { WORKLOAD_GROUP } from '../../../core/vocabulary';
import { listSome } from '../../../util/text';
import { FindingEffect, Severity } from '../../finding';
import { externalWorkloadCoverage } from '../../model/external-workloads';
import { serverCoverage } from '../../model/inbound/servers';
import { IndexedObject, PodTemplate } from '../../model/mesh-index';
import { workloadLabel } from '../../model/pod-templates';
import { Rule, RuleArea, RuleContext } from '../../rule';

interface Overlap {
  readonly loser: IndexedObject;
  readonly winner: IndexedObject;
  readonly port: number;
  /** Shared between the losers of one claim list (never copied per loser). */
  workloads: readonly string[];
}

/** ExternalWorkload::reindex_servers skips a Server whose port an earlier one claimed, as for pods. */
function reportExternalOverlaps(ctx: RuleContext): void {
  const coverage = externalWorkloadCoverage(ctx.index);
  const overlaps = new Map<string, { loser: IndexedObject; winner: IndexedObject; port: number; workloads: string[] }>();
  for (const workload of ctx.index.list(WORKLOAD_GROUP, 'ExternalWorkload')) {
    for (const [port, servers] of coverage.claimedPorts(workload)) {
      for (let i = 1; i < servers.length; i++) {
        const key = `${servers[i].id.namespace}|${servers[i].id.name}|${servers[0].id.name}|${port}`;
        const entry = overlaps.get(key) ?? { loser: servers[i], winner: servers[0], port, workloads: [] };
        overlaps.set(key, entry);
        entry.workloads.push(`ExternalWorkload ${workload.id.name}`);
      }
    }
  }
  for (const o of overlaps.values()) {
    ctx.report(o.loser, `Server ${o.loser.id.name} selects port ${o.port} of ${listSome(o.workloads)}, which Server ${o.winner.id.name} `
      + 'also selects; Linkerd applies the first by creation time (then name), so this Server is skipped there.', { effect: FindingEffect.IGNORED });
  }
}

/** Several Servers on one pod port: the policy controller keeps the first and skips the rest. */
export const overlappingServersRule: Rule = {
  id: 'LKD-POL-008',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  effects: [FindingEffect.IGNORED],
  doc: {
    certainty: 'Ignored: policy-controller/k8s/index/src/inbound/index.rs Pod::reindex_servers keeps the first Server per '
      + 'port and skips the others.',
    title: 'At most one Server selects each pod (or ExternalWorkload) port',
    why: 'Overlapping Servers are no longer rejected at admission (linkerd2 #13676). The inbound index orders Servers by '
      + 'creation time, then name; the first to claim a pod port wins and the others are skipped with only a log line, so '
      + 'their accessPolicy and the AuthorizationPolicies on them silently do nothing for that port.',
    fix: 'Give each pod port exactly one Server: narrow the podSelectors or merge the Servers.',
    linkerdSource: 'policy-controller/k8s/index/src/inbound/index.rs Pod::reindex_servers, ExternalWorkload::reindex_servers '
      + '(sorted by created_at then name; "Port already matched by another server; skipping")',
    badExample: '# orders-http and all-http both select app=orders, port 8080',
    goodExample: '# one Server per pod port; other workloads get their own Server',
  },
  check(ctx) {
    // Pods that share a claim list (the coverage shares one list per Server group and port) are collected per list
    // first, so the work is linear in pods and ports plus one finding per losing Server, not pods × Servers.
    const coverage = serverCoverage(ctx.index);
    const podsByClaim = new Map<readonly IndexedObject[], Map<number, PodTemplate[]>>();
    for (const pod of ctx.index.podTemplates) {
      for (const [port, servers] of coverage.claimedPorts(pod)) {
        if (servers.length < 2) continue;
        let byPort = podsByClaim.get(servers);
        if (!byPort) podsByClaim.set(servers, byPort = new Map());
        const list = byPort.get(port);
        if (list) list.push(pod); else byPort.set(port, [pod]);
      }
    }
    const overlaps = new Map<string, Overlap>();
    for (const [servers, byPort] of podsByClaim) {
      for (const [port, pods] of byPort) {
        const labels = pods.map(workloadLabel);
        for (let i = 1; i < servers.length; i++) {
          const loser = servers[i];
          const k = `${loser.id.namespace}|${loser.id.name}|${servers[0].id.name}|${port}`;
          const entry = overlaps.get(k);
          if (entry) entry.workloads = [...entry.workloads, ...labels];
          else overlaps.set(k, { loser, winner: servers[0], port, workloads: labels });
        }
      }
    }
    reportExternalOverlaps(ctx);
    // The workload list is rendered once per shared list, not once per losing Server.
    const rendered = new Map<readonly string[], string>();
    for (const o of overlaps.values()) {
      let text = rendered.get(o.workloads);
      if (text === undefined) rendered.set(o.workloads, text = listSome([...o.workloads]));
      ctx.report(o.loser, `Server ${o.loser.id.name} selects port ${o.port} of ${text}, which Server ${o.winner.id.name} `
        + 'also selects; Linkerd applies the first by creation time (then name), so this Server is skipped there.', { effect: FindingEffect.IGNORED });
    }
  },
};
