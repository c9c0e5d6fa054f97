/**
 * Rewrites the Exif item of a HEIC that heif-enc wrote, to lay it out as other writers do (an iPhone's
 * `Exif\0\0` before the TIFF header) or to break it. Only the layout heif-enc writes is understood (`iloc`
 * version 0 or 1, 4-byte base offsets, offsets and lengths, no index): anything else fails loudly.
 */

interface Found {
  /** Where the Exif item's iloc entry keeps its base offset, extent offset and extent length. */
  baseAt: number;
  offsetAt: number;
  lengthAt: number;
  payload: Buffer;
}

function box(b: Buffer, start: number, end: number, type: string): { start: number; end: number } {
  for (let at = start; at + 8 <= end; ) {
    const size = b.readUInt32BE(at);
    if (b.toString('latin1', at + 4, at + 8) === type) return { start: at + 8, end: at + size };
    if (size < 8) break;
    at += size;
  }
  throw new Error(`no ${type} box`);
}

function exifItem(b: Buffer): Found {
  const meta = box(b, 0, b.length, 'meta');
  const iinf = box(b, meta.start + 4, meta.end, 'iinf');
  let exifId = -1;
  for (let at = iinf.start + 6; at < iinf.end; at += b.readUInt32BE(at)) {
    // infe version 2: size, type, version/flags, item id (2), protection (2), item type.
    if (b.toString('latin1', at + 16, at + 20) === 'Exif') exifId = b.readUInt16BE(at + 12);
  }
  if (exifId < 0) throw new Error('no Exif item (was the HEIC made from a picture with EXIF?)');
  const iloc = box(b, meta.start + 4, meta.end, 'iloc');
  const version = b[iloc.start]!;
  if (version > 1 || b[iloc.start + 4] !== 0x44 || (b[iloc.start + 5]! & 0xf0) !== 0x40) throw new Error('an iloc layout heif-enc does not write');
  const count = b.readUInt16BE(iloc.start + 6);
  // Each entry: id (2), construction method (2, version 1 only), data reference (2), base offset (4),
  // extent count (2), extents of 8.
  const method = version === 1 ? 2 : 0;
  for (let i = 0, at = iloc.start + 8; i < count; i++) {
    const id = b.readUInt16BE(at);
    const base = at + 4 + method;
    const extents = b.readUInt16BE(base + 4);
    if (id === exifId) {
      if (extents !== 1 || (method && b.readUInt16BE(at + 2) !== 0)) throw new Error('an Exif item heif-enc does not write');
      const offset = b.readUInt32BE(base + 6);
      const length = b.readUInt32BE(base + 10);
      const start = b.readUInt32BE(base) + offset;
      return { baseAt: base, offsetAt: base + 6, lengthAt: base + 10, payload: b.subarray(start, start + length) };
    }
    at = base + 6 + extents * 8;
  }
  throw new Error('the Exif item has no iloc entry');
}

/**
 * The TIFF bytes of the Exif item heif-enc wrote (its 4-byte offset field is 0, the header follows).
 * @example
 * exifTiffOf(readFileSync('a.heic')).subarray(0, 4).toString('latin1'); // 'MM\0*'
 */
export function exifTiffOf(heic: Buffer): Buffer {
  const { payload } = exifItem(heic);
  return payload.subarray(4 + payload.readUInt32BE(0));
}

/**
 * A copy whose Exif item holds `payload` instead, appended in a new `mdat` box at the end and pointed at by
 * the item's iloc entry (so the rest of the file stays where it was). `at` moves the entry elsewhere
 * (`extentOffset`, `length`) to make a broken file.
 * @example
 * const iphone = withExifPayload(heic, Buffer.concat([u32(6), Buffer.from('Exif\0\0', 'latin1'), exifTiffOf(heic)]));
 */
export function withExifPayload(heic: Buffer, payload: Buffer, at: { extentOffset?: number; length?: number } = {}): Buffer {
  const found = exifItem(heic);
  const out = Buffer.concat([heic, Buffer.alloc(8), payload]);
  out.writeUInt32BE(8 + payload.length, heic.length);
  out.write('mdat', heic.length + 4, 'latin1');
  out.writeUInt32BE(heic.length + 8, found.baseAt);
  out.writeUInt32BE(at.extentOffset ?? 0, found.offsetAt);
  out.writeUInt32BE(at.length ?? payload.length, found.lengthAt);
  return out;
}

/** A 4-byte big-endian number, as the Exif item's offset field is. */
export function u32(n: number): Buffer {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(n);
  return b;
}

/** The Exif item as an iPhone lays it out: offset 6, `Exif\0\0`, then the TIFF header. */
export function iphoneExif(tiff: Buffer): Buffer {
  return Buffer.concat([u32(6), Buffer.from('Exif\0\0', 'latin1'), tiff]);
}
