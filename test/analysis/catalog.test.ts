/**
 * One catalog of codes: every rule ID has exactly one rule file and a documented section; no retired ID comes back;
 * construct errors use a rule's ID or a catalogued input code.
 */
import * as fs from 'fs';
import * as path from 'path';
import { INPUT_CODES, RETIRED_IDS } from '../../src/analysis/catalog';
import { ruleFiles } from '../../src/analysis/rule-docs';
import { ALL_RULES, FLEET_RULES } from '../../src/analysis/rules';

const ROOT = path.resolve(__dirname, '..', '..');
const files = ruleFiles(path.join(ROOT, 'src', 'analysis'));
const docs = fs.readFileSync(path.join(ROOT, 'docs', 'rules.md'), 'utf8');

describe('the catalog of codes', () => {
  test('every rule is registered once, in its own file, with an ID of its area', () => {
    const ids = ALL_RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const rule of [...ALL_RULES, ...FLEET_RULES]) {
      expect([rule.id, files.get(rule.id)]).toEqual([rule.id, expect.stringMatching(/^src\/analysis\/(rules\/[a-z-]+|fleet\/rules)\/[a-z0-9-]+\.ts$/)]);
      expect(rule.id).toMatch(new RegExp(`^LKD-${rule.area}-\\d{3}$`));
    }
    // A rule file defines one rule (cdk-nag's layout): no two IDs share a file.
    const perFile = new Map<string, string[]>();
    for (const [id, file] of files) perFile.set(file, [...(perFile.get(file) ?? []), id]);
    expect([...perFile.entries()].filter(([, list]) => list.length > 1)).toEqual([]);
  });

  test('every rule ID in a rule file is registered in the pack (no orphan rule)', () => {
    const registered = new Set([...ALL_RULES, ...FLEET_RULES].map((r) => r.id));
    expect([...files.keys()].filter((id) => !registered.has(id) && id !== 'LKD-SCHEMA-001')).toEqual([]);
  });

  test('docs/rules.md documents every rule and names its file', () => {
    for (const rule of [...ALL_RULES, ...FLEET_RULES]) {
      expect(docs).toContain(`## ${rule.id}\n`);
      expect(docs).toContain(`rule: \`${files.get(rule.id)}\``);
    }
  });

  test('retired IDs stay retired, and input codes are not rule IDs', () => {
    const ids = new Set(ALL_RULES.map((r) => r.id));
    expect(Object.keys(RETIRED_IDS).filter((id) => ids.has(id))).toEqual([]);
    expect(Object.keys(INPUT_CODES).filter((id) => ids.has(id))).toEqual([]);
  });

  test('every code a construct or rule writes in source is catalogued or a rule', () => {
    const known = new Set([...ALL_RULES.map((r) => r.id), ...FLEET_RULES.map((r) => r.id), ...Object.keys(INPUT_CODES), 'LKD-SCHEMA-001', 'LKD-META-001']);
    const used = new Set<string>();
    const walk = (dir: string) => {
      for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
        const full = path.join(dir, e.name);
        if (e.isDirectory() && e.name !== 'imports') walk(full);
        else if (e.name.endsWith('.ts')) for (const m of fs.readFileSync(full, 'utf8').matchAll(/LKD-[A-Z]+-\d{3}/g)) used.add(m[0]);
      }
    };
    walk(path.join(ROOT, 'src'));
    expect([...used].filter((id) => !known.has(id) && !(id in RETIRED_IDS)).sort()).toEqual([]);
  });
});
