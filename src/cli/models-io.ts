/** What `vidx models` and its subcommands run with: the streams and settings (tests pass their own). */

/** A stream the command writes to; a terminal gets a redrawn bar. */
export type Out = NodeJS.WritableStream & { isTTY?: boolean };

/** Streams and settings the command runs with (tests pass their own). */
export interface ModelsIo {
  modelsDir: string;
  hubUrl: string;
  stdin: NodeJS.ReadableStream & { isTTY?: boolean };
  stdout: Out;
  stderr: Out;
  /** Manifest to use instead of models/manifest.json (tests use the fixture manifest). */
  manifestPath?: string;
  signal?: AbortSignal;
}
