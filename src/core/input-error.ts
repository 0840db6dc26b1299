/**
 * The coded error for input the checks cannot read, shared by every front-end and by the rules that read files
 * (LKD-SCHEMA-001's CRD folders): the front-ends print `coded` and exit with the input error code.
 */
import { InputRule } from './errors';

/** Input the checks cannot read (missing or unreadable file, invalid YAML, not a Kubernetes object): coded, with a fix. */
export class InputError extends Error {
  public readonly ruleId = InputRule.FILE;
  constructor(message: string, public readonly fix: string = 'Check that the path exists, is readable and holds Kubernetes YAML.') {
    super(message);
    this.name = 'InputError';
  }

  /** `LKD-INPUT-007: <file>: <problem> Fix: <fix>`, the one line every front-end prints. */
  public get coded(): string {
    return `${this.ruleId}: ${this.message} Fix: ${this.fix}`;
  }
}
