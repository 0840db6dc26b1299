import { FindingEffect, Severity } from '../../finding';
import { everyRoute } from '../../model/routes/lists';
import { serviceParents } from '../../model/routes/parents';
import { noClusterIpReason } from '../../model/service-ports';
import { Rule, RuleArea } from '../../rule';

/** Outbound policy hangs off a Service's cluster IP; a Service without one can never carry a route. */
export const parentClusterIp: Rule = {
  id: 'LKD-ROUTE-003',
  area: RuleArea.ROUTE,
  severity: Severity.ERROR,
  effects: [FindingEffect.IGNORED],
  doc: {
    certainty: 'Never applies: policy-controller/k8s/status/src/service.rs valid_parent_service refuses a parent without a '
      + 'cluster IP.',
    title: 'A parent Service has a cluster IP (not headless, not ExternalName)',
    why: 'Clients\' proxies look routes up by the Service\'s cluster IP. Linkerd rejects a headless or ExternalName parent '
      + 'with NoMatchingParent ("parent service must have a ClusterIP"), and calls made to pod IPs or to an external '
      + 'name never see the route.',
    fix: 'Attach the route to a ClusterIP Service in front of the same pods (a second, non-headless Service is fine).',
    linkerdSource: 'policy-controller/k8s/status/src/service.rs Service::valid_parent_service; '
      + 'policy-controller/k8s/status/src/index.rs Index::parent_condition_service ("parent service must have a '
      + 'ClusterIP")',
    badExample: 'kind: Service\nmetadata: {name: orders}\nspec:\n  clusterIP: None\n---\nparentRefs:\n- {group: core, kind: Service, name: orders, port: 8080}',
    goodExample: 'kind: Service\nmetadata: {name: orders}\nspec:\n  type: ClusterIP\n---\nparentRefs:\n- {group: core, kind: Service, name: orders, port: 8080}',
  },
  check(ctx) {
    for (const route of everyRoute(ctx.index)) {
      for (const parent of serviceParents(route, ctx.index)) {
        const reason = parent.service && noClusterIpReason(parent.service);
        if (!reason) continue;
        ctx.report(route, `parentRefs[${parent.position}] names Service ${parent.namespace}/${parent.name}, which ${reason}; `
          + 'Linkerd only attaches routes to Services with a cluster IP, so this parent is rejected (NoMatchingParent).', { effect: FindingEffect.IGNORED });
      }
    }
  },
};
