// Parses Mermaid texts with the real mermaid package (its parser needs a DOM for DOMPurify: jsdom provides one).
// Reads a JSON list of texts on stdin, prints a JSON list of null (parsed) or the parse error.
import { createRequire } from 'module';
import { pathToFileURL } from 'url';

const require = createRequire(import.meta.url);
const paths = [process.env.MERMAID_NODE_MODULES, process.cwd()].filter(Boolean);
const load = (name) => import(pathToFileURL(require.resolve(name, { paths })).href);

const { JSDOM } = await load('jsdom');
const dom = new JSDOM('<!doctype html><html><body></body></html>');
globalThis.window = dom.window;
globalThis.document = dom.window.document;
const { default: mermaid } = await load('mermaid');

let input = '';
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const text of JSON.parse(input)) {
  try {
    await mermaid.parse(text);
    results.push(null);
  } catch (e) {
    results.push(String(e?.message ?? e));
  }
}
process.stdout.write(JSON.stringify(results));
