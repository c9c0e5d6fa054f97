/**
 * The EXIF block of a HEIF picture (HEIC, AVIF): an item of type `Exif` that the `meta` box lists in `iinf`
 * and places with `iloc` (ISO/IEC 23008-12, ISO/IEC 14496-12). exifr 7.1.3 finds that item itself, but
 * ignores `iloc`'s base offset, its `idat` construction method and any extent past the first, so it reads the
 * wrong bytes ("Malformed EXIF data") in the files libheif (`heif-enc` and the tools built on it) writes.
 * This reads the item as the standard places it and hands back the TIFF bytes, which exifr parses as it
 * parses a TIFF file. Every offset and length is checked against the bytes at hand before it is used, and
 * nothing is allocated from a declared size.
 */

/** The TIFF bytes of the Exif item, `none` when the file has no Exif item, or why the item is unreadable. */
export type HeifExif = { tiff: Uint8Array } | { none: true } | { problem: string };

/** An EXIF block larger than this is no camera's (a preview inside it is some hundred KB). */
const MAX_EXIF_BYTES = 8 * 1024 * 1024;
/** More extents than this for one item is no writer's layout. */
const MAX_EXTENTS = 64;

/** A reason the layout cannot be read; caught at the top and returned as a `problem`. */
class Broken extends Error {}

interface Box {
  type: string;
  /** Where the box's content starts (after its header) and ends. */
  start: number;
  end: number;
}

/** Big-endian unsigned integers of 0, 2, 4 or 8 bytes (the sizes ISO-BMFF fields use), checked against the bytes. */
function uint(b: Uint8Array, at: number, size: number): number {
  if (size === 0) return 0;
  if (at < 0 || at + size > b.length) throw new Broken('a box is cut off');
  const view = new DataView(b.buffer, b.byteOffset + at, size);
  if (size === 1) return view.getUint8(0);
  if (size === 2) return view.getUint16(0);
  if (size === 4) return view.getUint32(0);
  if (size === 8) {
    const big = view.getBigUint64(0);
    // Anything past 2^53 lies beyond every file this reads: it fails the range checks as such.
    return big > BigInt(Number.MAX_SAFE_INTEGER) ? Number.MAX_SAFE_INTEGER : Number(big);
  }
  throw new Broken(`a field is ${size} bytes long, which the standard does not allow`);
}

function fourcc(b: Uint8Array, at: number): string {
  if (at + 4 > b.length) throw new Broken('a box is cut off');
  // Bytes outside printable ASCII match no box type; as `?` they are safe to name in a message.
  return String.fromCharCode(...[b[at]!, b[at + 1]!, b[at + 2]!, b[at + 3]!].map((c) => (c >= 0x20 && c < 0x7f ? c : 0x3f)));
}

/**
 * The boxes between `start` and `end`, one at a time (so a search stops at the box it wants, before a cut-off
 * box after it); a box that claims to reach past `end` means the file is cut off.
 */
function* boxes(b: Uint8Array, start: number, end: number): Generator<Box> {
  let at = start;
  while (at + 8 <= end) {
    let size = uint(b, at, 4);
    const type = fourcc(b, at + 4);
    let header = 8;
    if (size === 1) {
      size = uint(b, at + 8, 8);
      header = 16;
    } else if (size === 0) {
      size = end - at;
    }
    if (size < header) throw new Broken(`the ${type} box declares ${size} bytes, less than its own header`);
    if (at + size > end) throw new Broken(`the ${type} box declares ${size} bytes, past the end of the file (cut off?)`);
    yield { type, start: at + header, end: at + size };
    at += size;
  }
}

function find(b: Uint8Array, start: number, end: number, type: string): Box | undefined {
  for (const box of boxes(b, start, end)) if (box.type === type) return box;
  return undefined;
}

/** A box inside a full box (`meta`, whose content starts after 4 bytes of version and flags). */
const child = (b: Uint8Array, parent: Box, type: string): Box | undefined => find(b, parent.start + 4, parent.end, type);

/** The ids of the items of type `Exif` (`infe` version 2 and 3; earlier versions carry no item type). */
function exifItemIds(b: Uint8Array, iinf: Box): number[] {
  const version = uint(b, iinf.start, 1);
  const first = iinf.start + 4 + (version === 0 ? 2 : 4);
  const ids: number[] = [];
  for (const infe of boxes(b, first, iinf.end)) {
    if (infe.type !== 'infe') continue;
    const v = uint(b, infe.start, 1);
    if (v < 2) continue;
    const idSize = v === 3 ? 4 : 2;
    const id = uint(b, infe.start + 4, idSize);
    if (fourcc(b, infe.start + 4 + idSize + 2) === 'Exif') ids.push(id);
  }
  return ids;
}

/** Where each extent of one item lies: in the file (construction method 0) or in `idat` (1). */
interface ItemPlace {
  method: number;
  dataReference: number;
  extents: Array<{ offset: number; length: number }>;
}

function itemPlaces(b: Uint8Array, iloc: Box): Map<number, ItemPlace> {
  const version = uint(b, iloc.start, 1);
  if (version > 2) throw new Broken(`iloc version ${version} is not in the standard`);
  let at = iloc.start + 4;
  const sizes = uint(b, at, 1);
  const more = uint(b, at + 1, 1);
  const offsetSize = sizes >> 4;
  const lengthSize = sizes & 0xf;
  const baseSize = more >> 4;
  const indexSize = version === 0 ? 0 : more & 0xf;
  at += 2;
  const idSize = version === 2 ? 4 : 2;
  const count = uint(b, at, idSize);
  at += idSize;
  const places = new Map<number, ItemPlace>();
  // Each item takes at least 6 bytes, so a count the box cannot hold stops at the box's end.
  for (let i = 0; i < count; i++) {
    if (at >= iloc.end) throw new Broken(`iloc declares ${count} items but holds fewer`);
    const id = uint(b, at, idSize);
    at += idSize;
    const method = version === 0 ? 0 : uint(b, at, 2) & 0xf;
    if (version > 0) at += 2;
    const dataReference = uint(b, at, 2);
    const base = uint(b, at + 2, baseSize);
    at += 2 + baseSize;
    const extentCount = uint(b, at, 2);
    at += 2;
    if (extentCount > MAX_EXTENTS) throw new Broken(`item ${id} has ${extentCount} extents, more than ${MAX_EXTENTS}`);
    const extents: ItemPlace['extents'] = [];
    for (let e = 0; e < extentCount; e++) {
      at += indexSize;
      const offset = uint(b, at, offsetSize);
      const length = uint(b, at + offsetSize, lengthSize);
      at += offsetSize + lengthSize;
      extents.push({ offset: base + offset, length });
    }
    if (at > iloc.end) throw new Broken('iloc is cut off');
    places.set(id, { method, dataReference, extents });
  }
  return places;
}

/** The item's bytes, its extents joined, each checked to lie inside the bytes it points into. */
function itemBytes(b: Uint8Array, place: ItemPlace, idat: Box | undefined): Uint8Array {
  if (place.dataReference !== 0) throw new Broken('the Exif item lies in another file');
  if (place.method === 2) throw new Broken('the Exif item is made from another item, which vidx does not follow');
  if (place.method > 2) throw new Broken(`the Exif item's construction method ${place.method} is not in the standard`);
  if (place.method === 1 && !idat) throw new Broken('the Exif item lies in an idat box the file does not have');
  const [from, to] = place.method === 1 && idat ? [idat.start, idat.end] : [0, b.length];
  if (place.extents.length === 0) throw new Broken('the Exif item has no extent');
  const parts: Uint8Array[] = [];
  let total = 0;
  for (const { offset, length } of place.extents) {
    const start = from + offset;
    // Length 0 means "to the end of the data" in ISO-BMFF.
    const end = length === 0 ? to : start + length;
    if (offset > to - from || end > to) throw new Broken(`the Exif item is said to lie at ${offset}…${offset + length}, past the end of the file (cut off?)`);
    total += end - start;
    if (total > MAX_EXIF_BYTES) throw new Broken(`the Exif item is larger than ${MAX_EXIF_BYTES / 1024 / 1024} MB`);
    parts.push(b.subarray(start, end));
  }
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

const isTiffHeader = (b: Uint8Array, at: number): boolean =>
  at >= 0 && at + 4 <= b.length && ((b[at] === 0x49 && b[at + 1] === 0x49 && b[at + 2] === 0x2a && b[at + 3] === 0) || (b[at] === 0x4d && b[at + 1] === 0x4d && b[at + 2] === 0 && b[at + 3] === 0x2a));

/**
 * The TIFF header inside an Exif item: 4 bytes giving the offset of the TIFF header from the end of those
 * 4 bytes (0 when it follows at once, as libheif writes; 6 before `Exif\0\0`, as phones write), then the
 * header. A block whose offset is wrong but that holds `Exif\0\0` and a header, or a bare header, is read too.
 */
function tiffOf(item: Uint8Array): Uint8Array {
  if (item.length < 8) throw new Broken(`the Exif item holds ${item.length} bytes, too few for an EXIF block`);
  const stated = 4 + uint(item, 0, 4);
  const exifMark = [0x45, 0x78, 0x69, 0x66, 0, 0];
  const marked = (at: number) => exifMark.every((v, i) => item[at + i] === v);
  for (const at of [stated, 4, marked(4) ? 10 : -1, marked(0) ? 6 : -1, 0]) {
    if (isTiffHeader(item, at)) return item.subarray(at);
  }
  throw new Broken(`the Exif item has no TIFF header where its offset (${stated - 4}) says`);
}

/**
 * Whether bytes start like an ISO-BMFF file (an `ftyp` box), as HEIC and AVIF pictures do.
 * @example
 * isBmff(heicBytes); // true
 */
export function isBmff(b: Uint8Array): boolean {
  return b.length >= 12 && fourcc(b, 4) === 'ftyp';
}

/**
 * The EXIF block of a HEIF picture as TIFF bytes (a view into `bytes`, or the joined extents), for exifr:
 * `none` when the file has no Exif item, a `problem` naming what is wrong when the item cannot be read.
 * With several Exif items, the one describing the primary picture (`cdsc` to `pitm`) is taken.
 * @example
 * const found = heifExif(await readFile('IMG_0001.HEIC'));
 * if ('tiff' in found) await exifr.parse(found.tiff, { pick: ['DateTimeOriginal'] });
 */
export function heifExif(bytes: Uint8Array): HeifExif {
  if (!isBmff(bytes)) return { problem: 'the file is not a HEIF file (no ftyp box)' };
  try {
    const meta = find(bytes, 0, bytes.length, 'meta');
    if (!meta) return { problem: 'the HEIF file has no meta box (cut off?)' };
    const iinf = child(bytes, meta, 'iinf');
    const ids = iinf ? exifItemIds(bytes, iinf) : [];
    if (ids.length === 0) return { none: true };
    const iloc = child(bytes, meta, 'iloc');
    if (!iloc) return { problem: 'the HEIF file lists an Exif item but no iloc box to find it' };
    const id = ids.length > 1 ? primaryExif(bytes, meta, ids) : ids[0]!;
    const place = itemPlaces(bytes, iloc).get(id);
    if (!place) return { problem: `the Exif item ${id} has no place in iloc` };
    return { tiff: tiffOf(itemBytes(bytes, place, child(bytes, meta, 'idat'))) };
  } catch (err) {
    if (err instanceof Broken) return { problem: err.message };
    throw err;
  }
}

/** Of several Exif items, the one whose `cdsc` reference names the primary item; else the first. */
function primaryExif(b: Uint8Array, meta: Box, ids: number[]): number {
  const pitm = child(b, meta, 'pitm');
  const iref = child(b, meta, 'iref');
  if (!pitm || !iref) return ids[0]!;
  const primary = uint(b, pitm.start + 4, uint(b, pitm.start, 1) === 0 ? 2 : 4);
  const idSize = uint(b, iref.start, 1) === 0 ? 2 : 4;
  for (const ref of boxes(b, iref.start + 4, iref.end)) {
    if (ref.type !== 'cdsc') continue;
    const from = uint(b, ref.start, idSize);
    const count = uint(b, ref.start + idSize, 2);
    for (let i = 0, at = ref.start + idSize + 2; i < count && at + idSize <= ref.end; i++, at += idSize) {
      if (ids.includes(from) && uint(b, at, idSize) === primary) return from;
    }
  }
  return ids[0]!;
}
