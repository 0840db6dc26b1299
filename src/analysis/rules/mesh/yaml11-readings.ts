import { Severity } from '../../finding';
import { Yaml11Reading } from '../../model/manifest';
import { Rule, RuleArea } from '../../rule';

function describe(file: string | undefined, r: Yaml11Reading): string {
  return `${file ?? 'line'}${file ? ':' : ' '}${r.line}: ${r.text} is ${r.yaml12} here (YAML 1.2) but ${r.yaml11} for ${r.readers} (YAML 1.1)`;
}

/** YAML read by the CLI or plugin is analysed as YAML 1.2; kubectl and Helm apply it as YAML 1.1. */
export const yaml11ReadingsRule: Rule = {
  id: 'LKD-MESH-013',
  area: RuleArea.MESH,
  severity: Severity.WARNING,
  doc: {
    certainty: 'Depends on: which tool applies the YAML (YAML 1.1 in kubectl and Helm, 1.2 elsewhere).',
    title: 'Unquoted scalars read the same in YAML 1.1 (kubectl, Helm) and YAML 1.2 (this analysis)',
    why: 'kubectl and Helm read YAML through go-yaml v2 with YAML 1.1 rules, this analysis (like most newer tools) with YAML '
      + '1.2: `port: 0443` is 443 here but octal 291 when applied, `enabled: yes` is a string here but the boolean true '
      + '(refused in a ConfigMap or annotation), `replicas: 1_0` is a string here but 10 (underscores are dropped from '
      + 'numbers of any length). PyYAML also reads `1:30` as 90, and `0o17`, `+.2`, `1e3` and `08` as strings. What was '
      + 'checked is then not what the cluster gets. (`+.2` and `-.5` are numbers here, as YAML 1.2 and kubectl read them.)',
    linkerdSource: 'not Linkerd: kubectl and Helm decode YAML with YAML 1.1 rules (sigs.k8s.io/yaml over go-yaml), this tool with YAML 1.2',
    fix: 'Quote the value ("0443", "yes") or write it the way both read alike (443, true).',
    badExample: 'ports:\n- port: 0443',
    goodExample: 'ports:\n- port: 443',
  },
  check(ctx) {
    for (const entry of ctx.index.objects) {
      const readings = entry.source.yaml11Readings;
      if (entry.inventory || !readings || readings.length === 0) continue;
      const shown = readings.slice(0, 10).map((r) => describe(entry.source.file, r));
      const more = readings.length > shown.length ? `; and ${readings.length - shown.length} more` : '';
      ctx.report(entry, `unquoted values that YAML 1.1 reads differently: ${shown.join('; ')}${more}.`);
    }
  },
};
