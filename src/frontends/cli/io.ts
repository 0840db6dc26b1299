/** What the CLI needs from its process, passed in so main() can be called (and tested) without one. */
export interface CliIo {
  readonly cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
}
