// Types for heic-decode, which ships none: the parts vidx calls.
declare module 'heic-decode' {
  /** One decoded picture: RGBA, 4 bytes a pixel, rows top to bottom. */
  interface DecodedHeic {
    width: number;
    height: number;
    data: Uint8ClampedArray;
  }
  /** A top-level picture of the file: its size is known before its pixels are decoded. */
  interface HeicImage {
    width: number;
    height: number;
    decode(): Promise<DecodedHeic>;
  }
  function decode(input: { buffer: Uint8Array }): Promise<DecodedHeic>;
  namespace decode {
    function all(input: { buffer: Uint8Array }): Promise<HeicImage[] & { dispose(): void }>;
  }
  export default decode;
}
