/**
 * README shows what `explain --to mesh-lab/orders-v1:8080` prints on mesh-lab (some reasons shortened with "...").
 * Every line shown must be what explain prints today: whole, or up to its "..." where README shortens it.
 */
import * as fs from 'fs';
import * as path from 'path';
import { manifests, meshLabObjects } from './mesh-lab-fixture';
import { explainPort, findPort, formatPortExplanation, meshModel } from '../../src/analysis/reachability';

const README = path.join(__dirname, '..', '..', 'README.md');
const INTRO = '`explain --to mesh-lab/orders-v1:8080` on mesh-lab prints';

/** The `n`th code block after the introduction (0: the default output, 1: what --verbose adds). */
function readmeExcerpt(n = 0): string[] {
  const text = fs.readFileSync(README, 'utf8');
  const blocks = [...text.slice(text.indexOf(INTRO)).matchAll(/```\n([\s\S]*?)\n```/g)];
  return blocks[n][1].split('\n');
}

function mustPrint(printed: string[], shown: string[]): void {
  for (const line of shown) {
    const prefix = line.endsWith(' ...') ? line.slice(0, -' ...'.length) : undefined;
    const match = prefix === undefined ? printed.includes(line) : printed.some((p) => p.startsWith(prefix));
    if (!match) throw new Error(`README shows a line explain no longer prints: ${JSON.stringify(line)}`);
  }
}

test("README's explain excerpts are what explain prints on mesh-lab, concise and --verbose", () => {
  const model = meshModel(manifests(meshLabObjects()));
  const port = findPort(model, 'mesh-lab/orders-v1:8080');
  if (typeof port === 'string') throw new Error(port);
  const explanation = explainPort(model, port);
  if (typeof explanation === 'string') throw new Error(explanation);
  const printed = formatPortExplanation(explanation).split('\n');
  const shown = readmeExcerpt();
  expect(shown.length).toBeGreaterThan(10);
  // The concise output is the whole excerpt: no reasons.
  expect(printed.filter((l) => l !== '')).toEqual(shown);
  const verbose = readmeExcerpt(1);
  expect(verbose[0]).toBe('  why:');
  mustPrint(formatPortExplanation(explanation, true).split('\n'), verbose);
});
