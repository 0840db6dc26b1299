/** `cdk8s-linkerd plan-deny PATH... --namespace NS [--observed FILE]`. */
import * as fs from 'fs';
import * as path from 'path';
import * as yaml from 'js-yaml';
import { ENGINE_SPECS, engineOptions } from './analyze-command';
import { OptionSpec, optionValue, parseArgs } from './args';
import { UsageError } from './errors';
import { CliIo } from './io';
import { loadManifests } from './load-manifests';
import { PLAN_DENY_USAGE } from './usage';
import { AUDIT_NOTE, DenyTarget, Observed, RESTART_NOTE, formatDenyPlanText, parseObserved, planDenyManifests } from '../../analysis/reachability';
import { InputError } from '../../core/input-error';
import { printableText } from '../../util/terminal-text';

const SPECS: Record<string, OptionSpec> = {
  ...ENGINE_SPECS,
  'help': { value: false },
  'namespace': { value: true },
  'cluster': { value: false },
  'to-policy': { value: true, choices: [DenyTarget.DENY, DenyTarget.ALL_AUTHENTICATED] },
  'observed': { value: true, repeat: true },
  'format': { value: true, choices: ['text', 'yaml', 'json'] },
};

const OBSERVED_FIX = 'Give the JSON of linkerd viz edges <type> -n NS -o json, or the Prometheus text of '
  + 'linkerd diagnostics proxy-metrics -n NS <workload> (or of Prometheus /federate for the inbound_*_authz_allow_total series).';

/** The `--observed` files, each viz edges JSON or a proxies' metrics scrape (told apart by their first character). */
export function readObserved(files: readonly string[], cwd: string): Observed {
  const read = files.map((file) => {
    let text: string;
    try {
      text = fs.readFileSync(path.resolve(cwd, file), 'utf8');
    } catch (e: any) {
      throw new InputError(`${file}: cannot read (${e?.code ?? e})`, OBSERVED_FIX);
    }
    const observed = parseObserved(text, file);
    if (typeof observed === 'string') throw new InputError(`${file}: ${observed}`, OBSERVED_FIX);
    return observed;
  });
  return { edges: read.flatMap((o) => o.edges), authorizations: read.flatMap((o) => o.authorizations) };
}

/** Exit 0 when the move refuses none of the known calls, 1 when it would refuse some. */
export function planDenyCommand(argv: readonly string[], io: CliIo): number {
  const args = parseArgs(argv, SPECS);
  if (args.flags.has('help')) {
    io.stdout(PLAN_DENY_USAGE);
    return 0;
  }
  const namespace = optionValue(args, 'namespace');
  const cluster = args.flags.has('cluster');
  if ((namespace === undefined) === !cluster) throw new UsageError('plan-deny needs exactly one of --namespace NAMESPACE and --cluster');
  if (namespace !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(namespace)) throw new UsageError('--namespace must be a DNS label');
  const policy = (optionValue(args, 'to-policy') ?? DenyTarget.DENY) as DenyTarget;
  if (args.positionals.length === 0) throw new UsageError('plan-deny needs at least one PATH (a YAML file or folder)');
  // Here --namespace names the namespace to move, not where objects without one are (analyze's -n).
  const options = { ...engineOptions(args, io.cwd), defaultNamespace: undefined };
  const observed = readObserved(args.options.get('observed') ?? [], io.cwd);
  const plan = planDenyManifests(loadManifests(args.positionals, io.cwd), namespace, options, observed.edges, policy, observed.authorizations);
  const text = plan.objects.map((o) => yaml.dump(o, { noRefs: true, sortKeys: false })).join('---\n');
  const format = optionValue(args, 'format') ?? 'text';
  if (format === 'yaml') io.stdout(text);
  else if (format === 'json') io.stdout(`${JSON.stringify({ ...plan, note: AUDIT_NOTE, ...(plan.namespace !== undefined ? { restartNote: RESTART_NOTE } : {}) }, null, 2)}\n`);
  else io.stdout(printableText(formatDenyPlanText(plan, text)));
  return plan.refused.length > 0 ? 1 : 0;
}
