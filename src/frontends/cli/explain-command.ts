/** `cdk8s-linkerd explain PATH... --to NS/WORKLOAD:PORT | --to-service NS/SERVICE:PORT`. */
import { ENGINE_SPECS, engineOptions } from './analyze-command';
import { OptionSpec, optionValue, parseArgs } from './args';
import { UsageError } from './errors';
import { CliIo } from './io';
import { loadManifests } from './load-manifests';
import { EXPLAIN_USAGE } from './usage';
import { analyze } from '../../analysis/engine';
import { formatEvidence, portEvidence, serviceEvidence } from '../../analysis/evidence/explain-evidence';
import {
  explainModel, explainPort, findPort, findServicePort, formatPortExplanation, formatServiceExplanation,
} from '../../analysis/reachability';
import { printableText } from '../../util/terminal-text';

const SPECS: Record<string, OptionSpec> = {
  ...ENGINE_SPECS,
  'help': { value: false },
  'to': { value: true },
  'to-service': { value: true },
  'from': { value: true },
  'method': { value: true },
  'path': { value: true },
  'verbose': { value: false },
  'format': { value: true, choices: ['text', 'json'] },
};

function json(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}

export function explainCommand(argv: readonly string[], io: CliIo): number {
  const args = parseArgs(argv, SPECS);
  if (args.flags.has('help')) {
    io.stdout(EXPLAIN_USAGE);
    return 0;
  }
  const to = optionValue(args, 'to');
  const toService = optionValue(args, 'to-service');
  if ((to === undefined) === (toService === undefined)) throw new UsageError('explain needs exactly one of --to NAMESPACE/WORKLOAD:PORT and --to-service NAMESPACE/SERVICE:PORT');
  if (args.positionals.length === 0) throw new UsageError('explain needs at least one PATH (a YAML file or folder)');
  const method = optionValue(args, 'method');
  const path = optionValue(args, 'path');
  if (method !== undefined && path === undefined) throw new UsageError('--method needs --path');
  if (path !== undefined && !path.startsWith('/')) throw new UsageError('--path must start with /');
  const options = engineOptions(args, io.cwd);
  const manifests = loadManifests(args.positionals, io.cwd);
  const model = explainModel(manifests, options);
  // Declared refusals, retry factors and rate-limit capacity: additive to explain's own output (no rule runs for it).
  const facts = analyze(manifests, { ...options, rules: [] });
  const format = optionValue(args, 'format') ?? 'text';
  if (toService !== undefined) {
    const service = findServicePort(model, toService);
    if (typeof service === 'string') throw new UsageError(service);
    const evidence = serviceEvidence(facts, toService);
    const text = formatServiceExplanation(service, model.outboundRequests(service)) + (evidence ? formatEvidence(evidence) : '');
    io.stdout(format === 'json' ? json({ ...service, evidence }) : printableText(text));
    return 0;
  }
  const port = findPort(model, to!);
  if (typeof port === 'string') throw new UsageError(port);
  const explanation = explainPort(model, port, { from: optionValue(args, 'from'), method, path });
  if (typeof explanation === 'string') throw new UsageError(explanation);
  const evidence = portEvidence(facts, to!);
  const text = formatPortExplanation(explanation, args.flags.has('verbose')) + (evidence ? formatEvidence(evidence) : '');
  io.stdout(format === 'json' ? json({ ...explanation, evidence }) : printableText(text));
  return 0;
}
