import { Cidr, cidrContains, cidrsOverlap, parseCidr, parseExactCidr } from '../../../core/cidr';
import { POLICY_GROUP } from '../../../core/vocabulary';
import { FindingEffect, Severity } from '../../finding';
import { IndexedObject } from '../../model/mesh-index';
import { specOf } from '../../model/objects';
import { Rule, RuleContext, RuleArea } from '../../rule';

/** One entry of a `networks` list as read: its cidr and the exceptions that parsed. */
export interface ParsedNetwork {
  readonly cidr: Cidr;
  readonly except: Cidr[];
}

/** Checks one `networks` list (NetworkAuthentication, EgressNetwork, legacy ServerAuthorization); returns what parsed. */
export function checkNetworkList(ctx: RuleContext, subject: IndexedObject, networks: unknown, path: string): ParsedNetwork[] {
  if (!Array.isArray(networks) || networks.length === 0) {
    ctx.report(subject, `${path} must be a non-empty list of {cidr, except}; the webhook rejects an empty one.`, { effect: FindingEffect.REJECTED });
    return [];
  }
  const parsed: ParsedNetwork[] = [];
  networks.forEach((net: any, i: number) => {
    const cidr = parseExactCidr(net?.cidr);
    if (!cidr) {
      ctx.report(subject, `${path}[${i}].cidr ${JSON.stringify(net?.cidr)} is not a CIDR or IP address.`, { effect: FindingEffect.REJECTED });
      return;
    }
    const entry: ParsedNetwork = { cidr, except: [] };
    parsed.push(entry);
    const except = net.except === undefined ? [] : net.except;
    if (!Array.isArray(except)) {
      ctx.report(subject, `${path}[${i}].except must be a list of CIDRs.`, { effect: FindingEffect.REJECTED });
      return;
    }
    except.forEach((text: unknown, j: number) => {
      const ex = parseExactCidr(text);
      const where = `${path}[${i}].except[${j}] ${JSON.stringify(text)}`;
      if (!ex) {
        ctx.report(subject, `${where} is not a CIDR or IP address.`, { effect: FindingEffect.REJECTED });
        return;
      }
      entry.except.push(ex);
      if (cidrContains(ex, cidr)) ctx.report(subject, `${where} covers the whole cidr ${cidr.text}, negating it; the webhook rejects this. Remove the entry instead.`, { effect: FindingEffect.REJECTED });
      else if (!cidrContains(cidr, ex)) ctx.report(subject, `${where} is not inside cidr ${cidr.text}; the webhook rejects it.`, { effect: FindingEffect.REJECTED });
    });
  });
  return parsed;
}

/**
 * The cluster network an egress entry overlaps, as the status controller judges it (status/src/index.rs
 * network_condition, api/src/policy/network.rs Network::intersect): one contains the other, and no `except` of the entry
 * covers the whole cluster network.
 */
function overlappedClusterNetwork(clusterNetworks: readonly string[], net: ParsedNetwork): Cidr | undefined {
  for (const text of clusterNetworks) {
    const cluster = parseCidr(text);
    if (cluster && cidrsOverlap(cluster, net.cidr) && !net.except.some((ex) => cidrContains(ex, cluster))) return cluster;
  }
  return undefined;
}

function checkEgressOverlap(ctx: RuleContext, egress: IndexedObject, parsed: ParsedNetwork[]): void {
  for (const net of parsed) {
    const hit = overlappedClusterNetwork(ctx.context.clusterNetworks, net);
    if (hit) {
      // An except may only carve out what the entry contains: past that, the webhook refuses it (validate_networks).
      const remedy = cidrContains(net.cidr, hit) && !cidrContains(hit, net.cidr) ? `, or list ${hit.text} under except` : '';
      ctx.report(egress, `spec.networks entry ${net.cidr.text} overlaps the cluster network ${hit.text}; Linkerd marks the EgressNetwork `
        + `Accepted=False (EgressReasonNetworkOverlap). Egress networks must lie outside clusterNetworks: move the entry out of ${hit.text}${remedy}.`,
      { effect: FindingEffect.IGNORED });
    }
  }
}

/** Networks of NetworkAuthentication and EgressNetwork: non-empty, parseable, sane excepts, egress outside the cluster. */
export const networksRule: Rule = {
  id: 'LKD-POL-005',
  area: RuleArea.POLICY,
  severity: Severity.ERROR,
  effects: [FindingEffect.REJECTED, FindingEffect.IGNORED],
  doc: {
    certainty: 'Rejected: policy-controller/runtime/src/admission.rs validate_networks refuses the networks; an '
      + 'EgressNetwork over the cluster networks is admitted but never accepted (status index.rs network_condition).',
    title: 'NetworkAuthentication / EgressNetwork networks are valid',
    why: 'The webhook rejects an empty networks list, a CIDR that does not parse, an except outside its cidr and an except that '
      + 'negates the whole cidr. An EgressNetwork whose networks overlap the cluster networks (one contains the other, and no '
      + 'except of the entry covers the cluster network) is admitted but not accepted.',
    fix: 'List at least one CIDR (a bare IP is fine), keep each except strictly inside its cidr, and keep egress networks outside clusterNetworks.',
    linkerdSource: 'policy-controller/runtime/src/admission.rs validate_networks, '
      + 'Validate<NetworkAuthenticationSpec>::validate, Validate<EgressNetworkSpec>::validate; '
      + 'policy-controller/k8s/status/src/index.rs Index::network_condition; policy-controller/k8s/api/src/policy/network.rs Network::intersect',
    badExample: 'networks:\n- cidr: 10.0.0.0/8\n  except: [10.0.0.0/8, 192.168.0.0/16]',
    goodExample: 'networks:\n- cidr: 10.0.0.0/8\n  except: [10.1.0.0/16]',
  },
  check(ctx) {
    for (const authn of ctx.index.own(POLICY_GROUP, 'NetworkAuthentication')) {
      checkNetworkList(ctx, authn, specOf(authn).networks, 'spec.networks');
    }
    for (const egress of ctx.index.own(POLICY_GROUP, 'EgressNetwork')) {
      const networks = specOf(egress).networks;
      if (networks === undefined) continue; // defaults to everything outside clusterNetworks
      checkEgressOverlap(ctx, egress, checkNetworkList(ctx, egress, networks, 'spec.networks'));
    }
  },
};
