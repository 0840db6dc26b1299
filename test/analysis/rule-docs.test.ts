import * as fs from 'fs';
import * as path from 'path';
import { renderRuleDocs } from '../../src/analysis/rule-docs';
import { ALL_RULES } from '../../src/analysis/rules';

describe('rule documentation', () => {
  test('every rule documents what, why, fix and both examples', () => {
    for (const rule of ALL_RULES) {
      expect({ id: rule.id, title: rule.doc.title.length > 10, why: rule.doc.why.length > 20, fix: rule.doc.fix.length > 10, bad: !!rule.doc.badExample, good: !!rule.doc.goodExample })
        .toEqual({ id: rule.id, title: true, why: true, fix: true, bad: true, good: true });
    }
  });

  test('docs/rules.md is generated from the current rules (run `npm run rule-docs`)', () => {
    const committed = fs.readFileSync(path.resolve(__dirname, '..', '..', 'docs', 'rules.md'), 'utf8');
    expect(committed).toEqual(renderRuleDocs());
  });
});
