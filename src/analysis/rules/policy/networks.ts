import { Cidr, cidrContains, cidrsOverlap, parseCidr, parseExactCidr } from '../../../core/cidr';
import { FindingEffect, Severity } from '../../finding';
import { IndexedObject, POLICY_GROUP } from '../../model/mesh-index';
import { specOf } from '../../model/policy-view';
import { Rule, RuleContext, RuleArea } from '../../rule';

/** Checks one `networks` list (NetworkAuthentication, EgressNetwork, legacy ServerAuthorization); returns the parsed CIDRs. */
export function checkNetworkList(ctx: RuleContext, subject: IndexedObject, networks: unknown, path: string): Cidr[] {
  if (!Array.isArray(networks) || networks.length === 0) {
    ctx.report(subject, `${path} must be a non-empty list of {cidr, except}; the webhook rejects an empty one.`, { effect: FindingEffect.REJECTED });
    return [];
  }
  const parsed: Cidr[] = [];
  networks.forEach((net: any, i: number) => {
    const cidr = parseExactCidr(net?.cidr);
    if (!cidr) {
      ctx.report(subject, `${path}[${i}].cidr ${JSON.stringify(net?.cidr)} is not a CIDR or IP address.`, { effect: FindingEffect.REJECTED });
      return;
    }
    parsed.push(cidr);
    const except = net.except === undefined ? [] : net.except;
    if (!Array.isArray(except)) {
      ctx.report(subject, `${path}[${i}].except must be a list of CIDRs.`, { effect: FindingEffect.REJECTED });
      return;
    }
    except.forEach((text: unknown, j: number) => {
      const ex = parseExactCidr(text);
      const where = `${path}[${i}].except[${j}] ${JSON.stringify(text)}`;
      if (!ex) ctx.report(subject, `${where} is not a CIDR or IP address.`, { effect: FindingEffect.REJECTED });
      else if (cidrContains(ex, cidr)) ctx.report(subject, `${where} covers the whole cidr ${cidr.text}, negating it; the webhook rejects this. Remove the entry instead.`, { effect: FindingEffect.REJECTED });
      else if (!cidrContains(cidr, ex)) ctx.report(subject, `${where} is not inside cidr ${cidr.text}; the webhook rejects it.`, { effect: FindingEffect.REJECTED });
    });
  });
  return parsed;
}

function checkEgressOverlap(ctx: RuleContext, egress: IndexedObject, parsed: Cidr[]): void {
  for (const net of parsed) {
    const hit = ctx.context.clusterNetworks.map(parseCidr).find((c) => c && cidrsOverlap(c, net));
    if (hit) {
      ctx.report(egress, `spec.networks entry ${net.text} overlaps the cluster network ${hit.text}; Linkerd marks the EgressNetwork `
        + 'Accepted=False (EgressReasonNetworkOverlap) and does not use it. Egress networks must lie outside clusterNetworks.', { effect: FindingEffect.IGNORED });
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
    title: 'NetworkAuthentication / EgressNetwork networks are valid',
    why: 'The webhook rejects an empty networks list, a CIDR that does not parse, an except outside its cidr and an except that '
      + 'negates the whole cidr. An EgressNetwork whose networks overlap the cluster networks is admitted but not accepted.',
    fix: 'List at least one CIDR (a bare IP is fine), keep each except strictly inside its cidr, and keep egress networks outside clusterNetworks.',
    linkerdSource: 'policy-controller/runtime/src/admission.rs validate_networks, '
      + 'Validate<NetworkAuthenticationSpec>::validate, Validate<EgressNetworkSpec>::validate; '
      + 'policy-controller/k8s/status/src/index.rs Index::network_condition',
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
