import * as fs from 'fs';
import * as path from 'path';
import { renderRuleDocs } from '../../src/analysis/rule-docs';
import { ALL_RULES } from '../../src/analysis/rules';

describe('rule documentation', () => {
  test('every rule documents what, why, fix and both examples', () => {
    for (const rule of ALL_RULES) {
      const { title, why, fix, badExample, goodExample } = rule.doc;
      expect({ id: rule.id, title: title.length > 10, why: why.length > 20, fix: fix.length > 10, bad: !!badExample, good: !!goodExample })
        .toEqual({ id: rule.id, title: true, why: true, fix: true, bad: true, good: true });
    }
  });

  test('docs/rules.md is generated from the current rules (run `npm run rule-docs`)', () => {
    const committed = fs.readFileSync(path.resolve(__dirname, '..', '..', 'docs', 'rules.md'), 'utf8');
    expect(committed).toEqual(renderRuleDocs());
  });
});
