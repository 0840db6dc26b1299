/** Bad usage or input the CLI cannot read: exit code 2, a message on stderr, and nothing on stdout. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}
