/**
 * Runs the compiled CLI in a child process with a memory cap and a wall-clock limit, and reports how long it took, so
 * the robustness tests can bound both. Built on the front-end harness (CLI_BIN, CDK8S_LINKERD_CLI, NODE_PATH).
 */
import { spawnSync } from 'child_process';
import { CLI_BIN, childEnv } from '../frontends/cli-harness';

export interface BoundedRun {
  readonly status: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
  readonly ms: number;
}

export interface BoundedOptions {
  readonly cwd: string;
  readonly input?: string;
  /** V8 old-space cap for the child, in MiB. */
  readonly maxOldSpaceMb?: number;
  readonly timeoutMs?: number;
}

export function runCliBounded(args: string[], options: BoundedOptions): BoundedRun {
  const start = Date.now();
  const result = spawnSync(process.execPath, [`--max-old-space-size=${options.maxOldSpaceMb ?? 512}`, CLI_BIN, ...args], {
    cwd: options.cwd,
    input: options.input,
    env: childEnv(),
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 60_000,
    // A report on 20 MB of input can be large; the default 1 MB would cut it and look like a crash.
    maxBuffer: 256 * 1024 * 1024,
  });
  if (result.error && (result.error as NodeJS.ErrnoException).code !== 'ETIMEDOUT') throw result.error;
  return { status: result.status, signal: result.signal, stdout: result.stdout ?? '', stderr: result.stderr ?? '', ms: Date.now() - start };
}
