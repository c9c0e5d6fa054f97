/**
 * Regroups a byte stream of little-endian float32 samples (ffmpeg `-f f32le`) into Float32Arrays,
 * carrying over the 1-3 bytes a chunk boundary can split off a sample.
 * @example
 * const ff = spawn(ffmpeg, ['-i', 'talk.mp4', '-ac', '1', '-ar', '16000', '-f', 'f32le', '-']);
 * const segments = await detectSpeech(f32leChunks(ff.stdout));
 */
export async function* f32leChunks(bytes: AsyncIterable<Uint8Array>): AsyncGenerator<Float32Array> {
  let carry = new Uint8Array(0);
  for await (const chunk of bytes) {
    let data = chunk;
    if (carry.length > 0) {
      data = new Uint8Array(carry.length + chunk.length);
      data.set(carry);
      data.set(chunk, carry.length);
    }
    const whole = data.length - (data.length % 4);
    if (whole > 0) {
      // Copy into a fresh, aligned buffer: stream chunks may share a pool at odd offsets.
      const samples = new Float32Array(whole / 4);
      new Uint8Array(samples.buffer).set(data.subarray(0, whole));
      if (!littleEndian) byteSwap(samples);
      yield samples;
    }
    carry = data.slice(whole);
  }
}

const littleEndian = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

function byteSwap(samples: Float32Array): void {
  const view = new DataView(samples.buffer);
  for (let i = 0; i < samples.length; i++) view.setFloat32(i * 4, view.getFloat32(i * 4, true));
}
