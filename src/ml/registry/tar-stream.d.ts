// Types for tar-stream 2 (MIT), which ships none: the parts vidx calls to write and read model archives.
declare module 'tar-stream' {
  import type { Readable, Writable } from 'node:stream';

  /** A tar entry's header (USTAR, with pax long names already applied when read). */
  interface Headers {
    name: string;
    size?: number;
    mode?: number;
    mtime?: Date;
    type?: 'file' | 'link' | 'symlink' | 'directory' | 'block-device' | 'character-device' | 'fifo' | 'contiguous-file' | 'pax-header' | 'pax-global-header' | 'gnu-long-link-path' | 'gnu-long-path' | null;
    linkname?: string | null;
  }

  /** Writes a tar stream: add entries one after another, then finalize. */
  interface Pack extends Readable {
    entry(header: Headers, buffer: string | Uint8Array, callback?: (err?: Error | null) => void): void;
    entry(header: Headers, callback?: (err?: Error | null) => void): Writable;
    finalize(): void;
  }

  /** Reads a tar stream: one `entry` event per entry, whose body must be drained before `next`. */
  interface Extract extends Writable {
    on(event: 'entry', listener: (header: Headers, stream: Readable, next: (err?: Error) => void) => void): this;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }

  function pack(): Pack;
  function extract(): Extract;
}
