/**
 * Wall and CPU time of a whole command, from process start to exit (children included), as a user waits for it.
 * CPU time comes from bash's `times` (user + system of the finished children), so it needs no tool beyond bash; on
 * a machine shared with other work it moves less than wall time does.
 */
import { spawnSync } from 'child_process';
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';

export interface ProcessTime {
  readonly wallMs: number;
  readonly cpuMs: number;
}

const TIMES = /(\d+)m([\d.]+)s\s+(\d+)m([\d.]+)s\s*$/;

/** Runs `command` (a shell command line) in `cwd`; throws with its output when it fails. */
export function timeCommand(command: string, cwd: string, env: Record<string, string | undefined> = {}): ProcessTime {
  const log = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cmd-')), 'output.log');
  const start = process.hrtime.bigint();
  // `times` prints the shell's own times, then its children's: the last line is the command's.
  const result = spawnSync('bash', ['-c', `${command} >"$BENCH_LOG" 2>&1; rc=$?; times; exit $rc`], {
    cwd,
    env: { ...process.env, ...env, BENCH_LOG: log },
    encoding: 'utf8',
  });
  const wallMs = Number(process.hrtime.bigint() - start) / 1e6;
  if (result.status !== 0) {
    throw new Error(`${command} failed (${result.status}):\n${fs.readFileSync(log, 'utf8').slice(-2000)}${result.stderr}`);
  }
  fs.rmSync(path.dirname(log), { recursive: true, force: true });
  const m = TIMES.exec(result.stdout.trim());
  if (!m) throw new Error(`no times from bash: ${result.stdout}`);
  const cpuMs = (Number(m[1]) * 60 + Number(m[2]) + Number(m[3]) * 60 + Number(m[4])) * 1000;
  return { wallMs, cpuMs };
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}
