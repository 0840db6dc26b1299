/**
 * What `diff` adds about declared refusals (additive to its own output): each refusal of BASE and HEAD with its
 * verdict on each side, listed when the declaration or the verdict changes — above all a refusal HEAD's policy allows.
 */
import { AnalysisResult } from '../engine';
import { RefusalView, serviceRefusals } from './explain-evidence';
import { compareStrings } from '../../util/compare';

export interface RefusalChange {
  readonly caller: string;
  readonly target: string;
  /** Undefined when the side does not declare it. */
  readonly base?: RefusalView['verdict'];
  readonly head?: RefusalView['verdict'];
  /** HEAD's reason (or BASE's, for a refusal HEAD no longer declares). */
  readonly because: string;
}

const key = (r: RefusalView) => `${r.caller} → ${r.target}`;

/** The declared refusals whose declaration or verdict differs between BASE and HEAD, in caller and target order. */
export function diffRefusals(base: AnalysisResult, head: AnalysisResult): RefusalChange[] {
  const before = new Map(serviceRefusals(base).map((r) => [key(r), r]));
  const after = new Map(serviceRefusals(head).map((r) => [key(r), r]));
  const changes: RefusalChange[] = [];
  for (const k of [...new Set([...before.keys(), ...after.keys()])].sort(compareStrings)) {
    const b = before.get(k);
    const h = after.get(k);
    if (b?.verdict === h?.verdict) continue;
    const r = (h ?? b)!;
    changes.push({ caller: r.caller, target: r.target, base: b?.verdict, head: h?.verdict, because: r.because });
  }
  return changes;
}

/** Text lines for the end of diff's text output; empty when nothing changed. */
export function formatRefusalChanges(changes: readonly RefusalChange[]): string {
  if (changes.length === 0) return '';
  const word = (v: RefusalView['verdict'] | undefined) => v ?? 'not declared';
  const lines = ['Declared refusals (LKD-POL-026):'];
  for (const c of changes) {
    const mark = c.head === 'allowed' ? '!' : c.head === 'proven' ? '+' : '~';
    lines.push(`  ${mark} ${c.caller} → ${c.target}: ${word(c.base)} → ${word(c.head)}: ${c.because}`);
  }
  return `${lines.join('\n')}\n`;
}
