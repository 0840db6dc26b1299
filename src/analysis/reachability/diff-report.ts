/** The diff in four formats: text, a pull-request comment (Markdown with a Mermaid graph), JSON and SARIF. */
import { ALLOWED_TO_DENIED, ChangeKind, DENIED_TO_ALLOWED, MeshChange, MeshDiff } from './diff';
import { MermaidIds, mermaidLabel } from './mermaid-text';

function count(diff: MeshDiff, kind: ChangeKind, change?: string): number {
  return diff.changes.filter((c) => c.kind === kind && (change === undefined || c.change === change)).length;
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/** One line a reviewer reads first. */
export function diffSummary(diff: MeshDiff): string {
  if (diff.changes.length === 0) {
    return 'No request of any caller is treated differently: no change to who may send which request, routes, traffic shares, '
      + 'ignored objects, retries or timeouts.';
  }
  const parts: string[] = [];
  const denied = count(diff, ChangeKind.AUTHORIZATION, ALLOWED_TO_DENIED);
  const allowed = count(diff, ChangeKind.AUTHORIZATION, DENIED_TO_ALLOWED);
  if (denied > 0) parts.push(`${plural(denied, 'call')} allowed → denied`);
  if (allowed > 0) parts.push(`${plural(allowed, 'call')} denied → allowed`);
  const shares = count(diff, ChangeKind.SHARE);
  if (shares > 0) parts.push(`${plural(shares, 'traffic share')} changed`);
  const ignored = count(diff, ChangeKind.IGNORED, 'now-ignored');
  const applies = count(diff, ChangeKind.IGNORED, 'no-longer-ignored');
  if (ignored > 0) parts.push(`${plural(ignored, 'object')} now ignored by Linkerd`);
  if (applies > 0) parts.push(`${plural(applies, 'object')} no longer ignored`);
  const routes = count(diff, ChangeKind.ROUTE);
  if (routes > 0) parts.push(`${plural(routes, 'request class')} routed differently`);
  const retried = count(diff, ChangeKind.RETRY, 'now-retried') + count(diff, ChangeKind.RETRY, 'no-longer-retried');
  if (retried > 0) parts.push(`${plural(retried, 'request class')} retried differently`);
  const settings = count(diff, ChangeKind.RETRY) - retried + count(diff, ChangeKind.TIMEOUT);
  if (settings > 0) parts.push(`${plural(settings, 'retry/timeout setting')} changed`);
  return `${parts.join(', ')}.`;
}

/** One change as scripts read it (JSON and the jsii API): fixed key order, `request` only when the change has one. */
export function changeRecord(c: MeshDiff['changes'][number]) {
  return {
    kind: c.kind,
    change: c.change,
    source: c.source,
    target: c.target,
    ...(c.request !== undefined ? { request: c.request } : {}),
    because: c.because,
  };
}

export function formatDiffJson(diff: MeshDiff): string {
  return `${JSON.stringify({ changes: diff.changes.map(changeRecord) }, null, 2)}\n`;
}

function requestText(c: MeshChange): string {
  return c.request !== undefined ? ` [${c.request}]` : '';
}

/** Grouped caller → target → request class, so that a change reads as the calls it changes. */
export function formatDiffText(diff: MeshDiff): string {
  const lines = [diffSummary(diff)];
  // One block per caller (or Service port, or object), in the order its first change comes.
  const bySource = new Map<string, MeshChange[]>();
  for (const c of diff.changes) bySource.set(c.source, [...(bySource.get(c.source) ?? []), c]);
  for (const [source, changes] of bySource) {
    lines.push(`${source}:`);
    for (const c of changes) lines.push(`  ${c.kind} ${c.change}: → ${c.target}${requestText(c)}`, `      because ${c.because}`);
  }
  return `${lines.join('\n')}\n`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

const EDGE_STYLE: Record<string, string> = {
  [ALLOWED_TO_DENIED]: 'stroke:#d62728,stroke-width:2px',
  [DENIED_TO_ALLOWED]: 'stroke:#2ca02c,stroke-width:2px',
};

/** The changed part of the mesh: one edge per change, red when a call is now refused, green when now allowed. */
export function diffMermaid(diff: MeshDiff): string {
  const ids = new MermaidIds();
  const nodes = new Map<string, string>();
  const edges: string[] = [];
  const styles: string[] = [];
  const node = (text: string) => {
    const id = ids.id(text);
    nodes.set(id, `  ${id}[${mermaidLabel(text)}]`);
    return id;
  };
  const changes = diff.changes.filter((c) => c.kind !== ChangeKind.IGNORED);
  changes.forEach((c: MeshChange) => {
    const from = node(c.source);
    const to = node(c.target);
    const label = c.kind === ChangeKind.AUTHORIZATION ? `${c.change}${requestText(c)}` : `${c.kind} ${c.change}${requestText(c)}`;
    edges.push(`  ${from} -->|${mermaidLabel(label)}| ${to}`);
    const style = EDGE_STYLE[c.change];
    if (style) styles.push(`  linkStyle ${edges.length - 1} ${style}`);
  });
  for (const c of diff.changes.filter((x) => x.kind === ChangeKind.IGNORED)) {
    const id = node(c.source);
    styles.push(`  style ${id} fill:#eeeeee,stroke:#999999,stroke-dasharray:4 2`);
  }
  return ['flowchart LR', ...nodes.values(), ...edges, ...styles].join('\n') + '\n';
}

export function formatDiffMarkdown(diff: MeshDiff): string {
  const out = [`**Mesh change:** ${diffSummary(diff)}`, ''];
  if (diff.changes.length === 0) return `${out.join('\n')}\n`;
  out.push('| kind | change | source | target | request | because |', '| --- | --- | --- | --- | --- | --- |');
  for (const c of diff.changes) {
    out.push(`| ${c.kind} | ${c.change} | ${cell(c.source)} | ${cell(c.target)} | ${cell(c.request ?? 'every request')} | ${cell(c.because)} |`);
  }
  out.push('', '```mermaid', diffMermaid(diff).trimEnd(), '```', '');
  return out.join('\n');
}

const SARIF_RULES: Record<ChangeKind, string> = {
  [ChangeKind.AUTHORIZATION]: 'A call between workloads changes from allowed to denied or back',
  [ChangeKind.ROUTE]: 'Requests to a Service port are taken by another route, or by none',
  [ChangeKind.SHARE]: 'A traffic share of a Service port changes',
  [ChangeKind.IGNORED]: 'An object becomes ignored by Linkerd, or starts to apply',
  [ChangeKind.RETRY]: 'A retry setting changes',
  [ChangeKind.TIMEOUT]: 'A timeout setting changes',
};

function sarifRuleId(kind: ChangeKind): string {
  return `LKD-DIFF-${kind.toUpperCase()}`;
}

function sarifLevel(c: MeshChange): string {
  if (c.change === ALLOWED_TO_DENIED || c.change === 'now-ignored') return 'warning';
  return 'note';
}

export function formatDiffSarif(diff: MeshDiff, tool: { version: string; informationUri: string }): string {
  const rules = Object.entries(SARIF_RULES).map(([kind, text]) => ({ id: sarifRuleId(kind as ChangeKind), shortDescription: { text } }));
  const results = diff.changes.map((c) => ({
    ruleId: sarifRuleId(c.kind),
    level: sarifLevel(c),
    message: { text: `${c.change}: ${c.source} → ${c.target}${requestText(c)}; ${c.because}` },
    locations: [{ logicalLocations: [{ fullyQualifiedName: c.target || c.source, kind: 'resource' }] }],
    properties: { kind: c.kind, change: c.change, source: c.source, target: c.target, ...(c.request !== undefined ? { request: c.request } : {}) },
  }));
  const log = {
    $schema: 'https://json.schemastore.org/sarif-2.1.0.json',
    version: '2.1.0',
    runs: [{ tool: { driver: { name: 'cdk8s-linkerd diff', version: tool.version, informationUri: tool.informationUri, rules } }, results }],
  };
  return `${JSON.stringify(log, null, 2)}\n`;
}
