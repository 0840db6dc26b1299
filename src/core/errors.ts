/**
 * Immediate validation: what a construct can check alone it checks at construction, and fails with one message that
 * names the construct path, a stable rule ID and the fix. The IDs are shared with the analysis engine where the
 * mistake is the same (e.g. weights are LKD-ROUTE-009 in both), so users can grep one ID everywhere.
 */
import * as path from 'path';
import { IConstruct } from 'constructs';

/** This package's own code, compiled (lib/) or as sources (src/): frames from here say nothing to a user. */
const PACKAGE_ROOT = path.resolve(__dirname, '..', '..');
const OWN_FRAME = [path.join(PACKAGE_ROOT, 'lib') + path.sep, path.join(PACKAGE_ROOT, 'src') + path.sep];

/** The stack starting at the user's code: the library frames above the caller are dropped. */
function userStack(stack: string | undefined): string | undefined {
  if (!stack) return stack;
  const [head, ...frames] = stack.split('\n');
  return [head, ...frames.filter((frame) => !OWN_FRAME.some((own) => frame.includes(own)))].join('\n');
}

/** The error every construct throws for bad input. */
export class MeshConfigError extends Error {
  /** The stable rule ID, e.g. `LKD-ROUTE-009`. */
  public readonly ruleId: string;
  /** The path of the construct that was given the bad input. */
  public readonly constructPath: string;

  constructor(scope: IConstruct, ruleId: string, problem: string, fix: string) {
    const constructPath = scope.node.path || '<root>';
    super(`[${constructPath}] ${ruleId}: ${problem} Fix: ${fix}`);
    this.name = 'MeshConfigError';
    this.ruleId = ruleId;
    this.constructPath = constructPath;
    // The untrimmed stack stays available (non-enumerable) for the library's own tests of where errors come from.
    Object.defineProperty(this, 'fullStack', { value: this.stack, enumerable: false });
    this.stack = userStack(this.stack);
  }
}

/**
 * Throws a MeshConfigError. Validators called for every construct write `if (!ok) fail(...)`, so the message (often
 * with a JSON-quoted value) is built only for the error, not on every call as `check`'s arguments are.
 */
export function fail(scope: IConstruct, ruleId: string, problem: string, fix: string): never {
  throw new MeshConfigError(scope, ruleId, problem, fix);
}

/** Throws a MeshConfigError when `ok` is false. */
export function check(ok: boolean, scope: IConstruct, ruleId: string, problem: string, fix: string): asserts ok {
  if (!ok) throw new MeshConfigError(scope, ruleId, problem, fix);
}

/** IDs of checks that only constructs make (input format), beside the engine's IDs. */
export const InputRule = {
  NAME: 'LKD-INPUT-001',
  PORT: 'LKD-INPUT-002',
  REQUIRED: 'LKD-INPUT-003',
  CONFLICT: 'LKD-INPUT-004',
  DURATION: 'LKD-INPUT-005',
  RANGE: 'LKD-INPUT-006',
  /** A file or folder the checks were told to read is missing, unreadable or not Kubernetes YAML. */
  FILE: 'LKD-INPUT-007',
  /** A setting given to a front-end (cdk8s.yaml plugin properties) is unknown or malformed. */
  SETTING: 'LKD-INPUT-008',
} as const;
