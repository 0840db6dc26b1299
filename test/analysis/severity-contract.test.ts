/**
 * The severity contract (docs/rules.md, src/analysis/severity-contract.ts): every rule says why its severity holds, in
 * a reason that opens with a ground of that severity; an error's reason names the code or authority that makes its
 * effect certain.
 */
import * as fs from 'fs';
import * as path from 'path';
import { Severity } from '../../src/analysis/finding';
import { DOCUMENTED_RULES } from '../../src/analysis/rule-docs';
import { ERROR_GROUNDS, GROUNDS, groundOf } from '../../src/analysis/severity-contract';

/** A linkerd2 (or proxy) file, or the authority outside Linkerd that decides. */
const CITES_CERTAINTY = /[A-Za-z0-9_.-]+\/[A-Za-z0-9_./-]+\.(?:rs|go|yaml|tpl)\b|API server|CRD|Pod Security admission|ServiceAccount admission|the output/;

describe('severity contract', () => {
  test('every rule says why its severity holds, opening with a ground of that severity', () => {
    const wrong = DOCUMENTED_RULES
      .filter((r) => groundOf(r.doc.certainty, r.severity) === undefined)
      .map((r) => `${r.id} (${r.severity}): ${JSON.stringify((r.doc.certainty ?? '').slice(0, 40))} opens with none of `
        + GROUNDS[r.severity].map((g) => g.label).join(', '));
    expect(wrong).toEqual([]);
  });

  test('an error names the code or the authority that makes its effect certain', () => {
    const uncited = DOCUMENTED_RULES
      .filter((r) => r.severity === Severity.ERROR && !CITES_CERTAINTY.test(r.doc.certainty ?? ''))
      .map((r) => r.id);
    expect(uncited).toEqual([]);
  });

  test('docs/rules.md opens with the contract and the CI recommendation, and shows every rule\'s reason', () => {
    const doc = fs.readFileSync(path.resolve(__dirname, '..', '..', 'docs', 'rules.md'), 'utf8');
    const contract = doc.indexOf('## Severity contract');
    const ci = doc.indexOf('## What to run in CI');
    const firstRule = doc.indexOf('\n## LKD-');
    expect([contract > 0, ci > contract, firstRule > ci]).toEqual([true, true, true]);
    for (const g of ERROR_GROUNDS) expect(doc.slice(contract, ci)).toContain(`*${g.label}*`);
    const missing = DOCUMENTED_RULES.filter((r) => !doc.includes(`Severity because: ${r.doc.certainty}`)).map((r) => r.id);
    expect(missing).toEqual([]);
  });

  test('a ground belongs to one severity only', () => {
    const labels = Object.values(GROUNDS).flat().map((g) => g.label);
    expect(new Set(labels).size).toBe(labels.length);
    expect(groundOf('Ignored: x', Severity.WARNING)).toBeUndefined();
    expect(groundOf('Ignored: x', Severity.ERROR)?.label).toBe('Ignored');
  });
});
