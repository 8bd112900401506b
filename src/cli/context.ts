/** What a command's action may tell the program: its exit code (0 ok, 1 problems found, 2 usage or configuration error). */
export interface CommandContext {
  setExitCode(code: number): void;
}
