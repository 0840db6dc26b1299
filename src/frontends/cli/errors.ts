import { InputRule } from '../../core/errors';

/** Bad usage or input the CLI cannot read: exit code 2, a message on stderr, and nothing on stdout. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

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
