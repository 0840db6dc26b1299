/**
 * Writes docs/rules.md from the rule pack: every rule's ID, severity, what, why, fix and example, in one place.
 * `npm run rule-docs` regenerates it; a test fails when the committed file is stale.
 */
import * as fs from 'fs';
import * as path from 'path';
import { renderRuleDocs } from '../src/analysis/rule-docs';

const target = path.resolve(__dirname, '..', 'docs', 'rules.md');
fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, renderRuleDocs());
process.stdout.write(`wrote ${path.relative(process.cwd(), target)}\n`);
