import { randomBytes } from 'node:crypto';

let lastMs = 0;
let seq = 0;

/**
 * A UUIDv7 that sorts after every one this process made before it, even within one millisecond.
 * Item cursors use it so a page boundary stays valid when the item it names is deleted.
 * @example
 * uuid7() < uuid7(); // true
 */
export function uuid7(): string {
  let ms = Date.now();
  if (ms <= lastMs) {
    ms = lastMs;
    seq++;
    if (seq > 0xfff) {
      ms = ++lastMs;
      seq = 0;
    }
  } else {
    seq = 0;
  }
  lastMs = ms;
  const bytes = randomBytes(16);
  bytes.writeUIntBE(ms, 0, 6);
  bytes[6] = 0x70 | (seq >> 8);
  bytes[7] = seq & 0xff;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
