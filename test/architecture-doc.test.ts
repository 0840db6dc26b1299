/**
 * Keeps docs/architecture.md true: every path and command it names exists, its layer table lists exactly the layers
 * test/architecture.test.ts enforces, its steps for a rule name what the guard tests require, and its list of CLI
 * commands is the dispatch of main.ts.
 */
import * as fs from 'fs';
import * as path from 'path';

const ROOT = path.resolve(__dirname, '..');
const DOC = fs.readFileSync(path.join(ROOT, 'docs', 'architecture.md'), 'utf8');
const read = (rel: string) => fs.readFileSync(path.join(ROOT, rel), 'utf8');

/** Paths the doc names in backticks; a `<placeholder>` path stands for the folder before its first placeholder. */
function namedPaths(): string[] {
  return [...DOC.matchAll(/`((?:src|test|docs|scripts|rosetta|lib)\/[^`\s]*|README\.md|CHANGELOG\.md|API\.md)`/g)].map((m) => m[1]);
}

describe('docs/architecture.md', () => {
  test('every path it names exists (lib/ once compiled)', () => {
    const missing = namedPaths().filter((p) => !p.startsWith('lib/')).filter((p) => {
      const concrete = p.includes('<') ? p.slice(0, p.indexOf('<')) : p;
      return !fs.existsSync(path.join(ROOT, concrete));
    });
    expect(missing).toEqual([]);
  });

  test('every npm script and projen task it names exists', () => {
    const scripts = JSON.parse(read('package.json')).scripts as Record<string, string>;
    const tasks = JSON.parse(read('.projen/tasks.json')).tasks as Record<string, unknown>;
    const npm = [...DOC.matchAll(/`npm run ([a-z:-]+)`/g)].map((m) => m[1]).filter((name) => scripts[name] === undefined);
    const projen = [...DOC.matchAll(/`npx projen ([a-z:-]+)`/g)].map((m) => m[1]).filter((name) => tasks[name] === undefined);
    expect({ npm, projen }).toEqual({ npm: [], projen: [] });
  });

  test('its layer table lists exactly the layers the architecture test enforces', () => {
    const section = DOC.slice(DOC.indexOf('## The layers'), DOC.indexOf('## Add a rule'));
    const documented = [...section.matchAll(/^\| `src\/([^`]+)` \|/gm)].map((m) => m[1]).sort();
    const enforced = [...read('test/architecture.test.ts').matchAll(/^ {2}'([^']+)': \[/gm)].map((m) => m[1]).sort();
    expect(documented).toEqual(enforced);
  });

  test('the steps for a rule name what the guard tests require', () => {
    const steps = DOC.slice(DOC.indexOf('## Add a rule'), DOC.indexOf('## Add a construct'));
    // The catalog test requires a rule's file under rules/<area>/ and the pack to list it.
    expect(read('test/analysis/catalog.test.ts')).toMatch(/rules\\\/\[a-z-\]\+/);
    expect(steps).toContain('src/analysis/rules/<area>/<rule-name>.ts');
    expect(steps).toContain('src/analysis/rules/<area>/index.ts');
    // The message review reads rule-triggers.ts and is regenerated with UPDATE_ERROR_DOCS; rule-docs wants `npm run rule-docs`.
    const review = read('test/robustness/error-messages.test.ts');
    expect(review).toContain("from './rule-triggers'");
    expect(review).toContain('UPDATE_ERROR_DOCS');
    expect(read('test/analysis/rule-docs.test.ts')).toContain('npm run rule-docs');
    for (const needed of ['test/robustness/rule-triggers.ts', 'UPDATE_ERROR_DOCS=1', '`npm run rule-docs`', 'linkerdSource',
      'test/analysis/rule-sources.test.ts', 'badExample', 'goodExample']) {
      expect([needed, steps.includes(needed)]).toEqual([needed, true]);
    }
    // Every area folder has the list the steps point to.
    const areas = fs.readdirSync(path.join(ROOT, 'src', 'analysis', 'rules'), { withFileTypes: true })
      .filter((e) => e.isDirectory() && e.name !== 'schema').map((e) => e.name);
    expect(areas.filter((area) => !fs.existsSync(path.join(ROOT, 'src', 'analysis', 'rules', area, 'index.ts')))).toEqual([]);
  });

  test('the steps for a construct name the scenario file the message review requires', () => {
    const steps = DOC.slice(DOC.indexOf('## Add a construct'), DOC.indexOf('## Add a CLI command'));
    expect(read('test/robustness/error-messages.test.ts')).toContain("from './construct-error-scenarios'");
    expect(steps).toContain('test/robustness/construct-error-scenarios.ts');
  });

  test('its list of CLI commands is the dispatch of main.ts', () => {
    const dispatched = [...read('src/frontends/cli/main.ts').matchAll(/^ {4}case '([a-z-]+)': return /gm)].map((m) => m[1]).sort();
    const line = DOC.slice(DOC.indexOf('The commands today:')).split('\n')[0];
    const documented = [...line.matchAll(/`([a-z-]+)`/g)].map((m) => m[1]).sort();
    expect(documented).toEqual(dispatched);
  });
});
