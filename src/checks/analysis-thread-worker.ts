/** The entry point of the analysis thread (see analysis-thread.ts): analyse what it was handed, answer once. */
import { workerData } from 'worker_threads';
import type { ThreadAnswer, ThreadInput } from './analysis-thread';
import { analyze } from '../analysis/engine';

function answer(input: ThreadInput): ThreadAnswer {
  try {
    const manifests = input.manifestsJson !== undefined ? JSON.parse(input.manifestsJson) : input.manifests ?? [];
    const { findings, suppressed } = analyze(manifests, input.options);
    return { verdict: { findings, suppressed } };
  } catch (e) {
    return { error: e instanceof Error ? e.message : String(e) };
  }
}

function signalEnd(): void {
  Atomics.store(input.done, 0, 1);
  Atomics.notify(input.done, 0);
}

const input = workerData as ThreadInput;
// However the thread ends (an exit from inside a rule included), the waiting synth wakes and, without an answer,
// analyses inline.
process.on('exit', signalEnd);
input.port.postMessage(answer(input));
signalEnd();
