/** What the CLI needs from its process, passed in so main() can be called (and tested) without one. */
export interface CliIo {
  stdout(text: string): void;
  stderr(text: string): void;
  readonly cwd: string;
}
