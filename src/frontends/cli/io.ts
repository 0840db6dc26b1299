/** What the CLI needs from its process, passed in so main() can be called (and tested) without one. */
export interface CliIo {
  readonly cwd: string;
  /** The environment (only CDK8S_LINKERD_DEBUG is read: it adds the stack to an internal error). */
  readonly env?: Readonly<Record<string, string | undefined>>;
  stdout(text: string): void;
  stderr(text: string): void;
}
