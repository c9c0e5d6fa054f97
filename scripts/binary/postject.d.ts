/** postject ships no types; this is the part of its API the binary build uses. */
declare module 'postject' {
  /** Options of postject's `inject` (see its README). */
  export interface InjectOptions {
    /** The SEA fuse string to flip, NODE_SEA_FUSE_<hash> for Node. */
    sentinelFuse?: string;
    /** Replace an existing resource of the same name. */
    overwrite?: boolean;
    machoSegmentName?: string;
  }
  /**
   * Adds `resourceData` to the executable `filename` as `resourceName` and flips the fuse.
   * @example
   * await inject('dist/vidx', 'NODE_SEA_BLOB', blob, { sentinelFuse: 'NODE_SEA_FUSE_…' });
   */
  export function inject(filename: string, resourceName: string, resourceData: Buffer, options?: InjectOptions): Promise<void>;
}
