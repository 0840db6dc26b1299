/**
 * Immediate validation: what a construct can check alone it checks at construction, and fails with one message that
 * names the construct path, a stable rule ID and the fix. The IDs are shared with the analysis engine where the
 * mistake is the same (e.g. weights are LKD-ROUTE-009 in both), so users can grep one ID everywhere.
 */
import { IConstruct } from 'constructs';

/** The error every construct throws for bad input. */
export class MeshConfigError extends Error {
  /** The stable rule ID, e.g. `LKD-ROUTE-009`. */
  public readonly ruleId: string;
  /** The path of the construct that was given the bad input. */
  public readonly constructPath: string;

  constructor(scope: IConstruct, ruleId: string, problem: string, fix: string) {
    const path = scope.node.path || '<root>';
    super(`[${path}] ${ruleId}: ${problem} Fix: ${fix}`);
    this.name = 'MeshConfigError';
    this.ruleId = ruleId;
    this.constructPath = path;
  }
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
} as const;
