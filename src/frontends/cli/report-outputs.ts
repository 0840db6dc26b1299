/**
 * `--output FORMAT=FILE` (repeatable): one run writes several reports, e.g. SARIF for code scanning and JUnit for the
 * test tab, while stdout keeps --format. Every report is rendered before any file is written, so a run that fails
 * leaves no half-written file.
 */
import * as fs from 'fs';
import * as path from 'path';
import { UsageError } from './errors';

export interface OutputTarget {
  readonly format: string;
  readonly file: string;
}

const OUTPUT_ARG = /^([a-z]+)=(.+)$/;

export function outputTargets(values: readonly string[] | undefined, formats: readonly string[]): OutputTarget[] {
  return (values ?? []).map((value) => {
    const m = OUTPUT_ARG.exec(value);
    if (!m || !formats.includes(m[1])) {
      throw new UsageError(`--output must be FORMAT=FILE with FORMAT one of ${formats.join(', ')} (got ${JSON.stringify(value)})`);
    }
    return { format: m[1], file: m[2] };
  });
}

/** Renders every target, then writes them (creating folders); relative files resolve against `cwd`. */
export function writeOutputs(targets: readonly OutputTarget[], cwd: string, render: (format: string) => string): void {
  const rendered = targets.map((t) => ({ file: path.resolve(cwd, t.file), text: render(t.format) }));
  for (const { file, text } of rendered) {
    try {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, text);
    } catch (e: any) {
      throw new UsageError(`--output ${file}: cannot write (${e?.code ?? e?.message ?? e})`);
    }
  }
}
