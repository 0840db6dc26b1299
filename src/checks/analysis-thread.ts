/**
 * The synth-time analysis on a worker thread. cdk8s spends most of a synth writing YAML, on one core; the checks need
 * only the rendered objects, so they run beside that writing and the synth waits for their verdict before it returns
 * (and before any manifest reaches the output directory: see MeshChecks). On one core, when the thread cannot start,
 * or when it ends without a result, the analysis runs inline as before: a thread never decides whether the checks ran.
 */
import * as fs from 'fs';
import * as os from 'os';
import * as path from 'path';
import { getHeapStatistics } from 'v8';
import { MessageChannel, MessagePort, Worker, receiveMessageOnPort } from 'worker_threads';
import { AnalysisResult, AnalyzeOptions } from '../analysis/engine';
import { Manifest } from '../analysis/model/manifest';

/** Set to `off` to run the synth-time checks inline (the same verdicts, one core). */
export const CHECKS_THREAD_ENV = 'CDK8S_LINKERD_CHECKS_THREAD';

/**
 * The smallest App (in objects) whose analysis a thread takes: a thread takes about 0.2 s to start and load the
 * engine, which `npm run bench` puts at break-even near 3,000 objects.
 */
export const THREAD_MIN_OBJECTS = 4000;

/** The compiled entry point of the thread; absent when the library runs from its TypeScript sources (tests). */
const WORKER_FILE = path.join(__dirname, 'analysis-thread-worker.js');

/**
 * How long a thread that never answers is waited for before the analysis runs inline instead: a thread that ran out
 * of memory cannot say so (the thread signals every other end itself). Inline, 50,000 objects take about 2 s.
 */
const GIVE_UP_BASE_MS = 30_000;
const GIVE_UP_PER_OBJECT_MS = 2;

export type ThreadVerdict = Pick<AnalysisResult, 'findings' | 'suppressed'>;

/**
 * What the thread is handed: the objects as JSON text when that reads back exactly, else structured-cloned (exact,
 * but slower to copy on the main thread), and the options as the engine takes them.
 */
export interface ThreadInput {
  readonly manifestsJson?: string;
  readonly manifests?: Manifest[];
  readonly options: AnalyzeOptions;
  readonly done: Int32Array;
  readonly port: MessagePort;
}

/** What the thread answers: the verdict, or why it has none. */
export interface ThreadAnswer {
  readonly verdict?: ThreadVerdict;
  readonly error?: string;
}

/**
 * Rendered objects hold no undefined or null in maps (cdk8s drops them), so a `null` token in their JSON comes from
 * an array entry, NaN or Infinity, which JSON would not give back as they were. Seen anywhere (even inside a string,
 * where it is harmless), the objects are cloned instead: only the copy's speed depends on this test, never a verdict.
 */
const NULL_TOKEN = /[:,[]null[,\]}]/;

/** The JSON text of `value` when it reads back exactly (see NULL_TOKEN), else undefined. */
export function exactJson(value: unknown): string | undefined {
  const json = JSON.stringify(value);
  return NULL_TOKEN.test(json) ? undefined : json;
}

function cores(): number {
  return typeof os.availableParallelism === 'function' ? os.availableParallelism() : os.cpus().length;
}

/** Whether a synth of this process may hand its analysis to a thread. */
export function analysisThreadAvailable(env: NodeJS.ProcessEnv = process.env): boolean {
  return env[CHECKS_THREAD_ENV] !== 'off' && cores() >= 2 && fs.existsSync(WORKER_FILE);
}

/** An analysis running on its thread. */
export class PendingAnalysis {
  /** Starts the analysis of `manifests`, or returns undefined when no thread can take it. */
  public static start(manifests: Manifest[], options: AnalyzeOptions): PendingAnalysis | undefined {
    const done = new Int32Array(new SharedArrayBuffer(4));
    const { port1, port2 } = new MessageChannel();
    try {
      const json = exactJson(manifests);
      const input: ThreadInput = { ...(json !== undefined ? { manifestsJson: json } : { manifests }), options, done, port: port2 };
      // The same heap as the analysis would have inline: the thread must not fail where the main thread would not.
      const maxOldGenerationSizeMb = Math.ceil(getHeapStatistics().heap_size_limit / (1024 * 1024));
      const worker = new Worker(WORKER_FILE, { workerData: input, transferList: [port2], resourceLimits: { maxOldGenerationSizeMb } });
      // A thread that fails (out of memory, an error after its answer) must not crash the app later: wait() has
      // already fallen back to an inline analysis, or has the answer.
      worker.on('error', () => undefined);
      worker.unref();
      return new PendingAnalysis(worker, done, port1, GIVE_UP_BASE_MS + GIVE_UP_PER_OBJECT_MS * manifests.length);
    } catch {
      port1.close();
      return undefined;
    }
  }

  private constructor(
    private readonly worker: Worker,
    private readonly done: Int32Array,
    private readonly port: MessagePort,
    private readonly giveUpMs: number,
  ) {}

  /**
   * Blocks until the thread signals its end and returns its verdict, or undefined when it ended without one (or
   * never signalled in time: it ran out of memory): the caller then analyses inline.
   */
  public wait(): ThreadVerdict | undefined {
    Atomics.wait(this.done, 0, 0, this.giveUpMs);
    const answer = receiveMessageOnPort(this.port)?.message as ThreadAnswer | undefined;
    this.stop();
    return answer?.verdict;
  }

  /** Drops the analysis (the synth failed for another reason and its verdict is not needed). */
  public stop(): void {
    this.port.close();
    void this.worker.terminate();
  }
}
