import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractAssets, type BuildInfo } from '../../src/sea/extract.js';

const LIB = Buffer.from('pretend shared library '.repeat(100));
const MODEL = Buffer.from('pretend onnx weights');

function build(id: string): { info: BuildInfo; read: (key: string) => ArrayBuffer; reads: string[] } {
  const stored: Record<string, Buffer> = { 'native/lib.so': gzipSync(LIB), 'models/m.onnx': MODEL };
  const reads: string[] = [];
  return {
    info: {
      id, version: '0.0.0', node: 'v20', builtAt: '',
      files: [
        { key: 'native/lib.so', path: 'native/lib.so', size: LIB.length, gzip: true, mode: 0o755 },
        { key: 'models/m.onnx', path: 'models/m.onnx', size: MODEL.length, gzip: false, mode: 0o644 },
      ],
    },
    reads,
    read: (key) => {
      reads.push(key);
      const b = stored[key];
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.length) as ArrayBuffer;
    },
  };
}

describe('extracting the binary’s embedded files', () => {
  let tmp: string;
  beforeAll(() => {
    tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'extract-'));
  });
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('unpacks once per build id into the XDG cache, then only checks sizes', () => {
    const env = { XDG_CACHE_HOME: join(tmp, 'xdg'), TMPDIR: join(tmp, 'tmp') };
    const b = build('0123456789abcdef');
    const first = extractAssets(b.info, b.read, env);
    expect(first.dir).toBe(join(tmp, 'xdg', 'vidx', '0123456789abcdef'));
    expect(first.written).toBe(2);
    expect(readFileSync(join(first.dir, 'native/lib.so'))).toEqual(LIB);
    expect(statSync(join(first.dir, 'native/lib.so')).mode & 0o777).toBe(0o755);
    expect(existsSync(join(first.dir, '.users', String(process.pid)))).toBe(true);
    b.reads.length = 0;
    expect(extractAssets(b.info, b.read, env).written).toBe(0);
    expect(b.reads).toEqual([]);
    // A damaged file (wrong size) is written again, through a temp name, leaving no temp file behind.
    writeFileSync(join(first.dir, 'models/m.onnx'), 'half');
    expect(extractAssets(b.info, b.read, env).written).toBe(1);
    expect(readFileSync(join(first.dir, 'models/m.onnx'))).toEqual(MODEL);
    expect(readFileSync(join(first.dir, 'models/m.onnx')).length).toBe(MODEL.length);
  });

  it('removes folders of other builds unless a live process uses them', () => {
    const env = { XDG_CACHE_HOME: join(tmp, 'xdg2') };
    const root = join(tmp, 'xdg2', 'vidx');
    for (const id of ['aaaaaaaaaaaaaaaa', 'bbbbbbbbbbbbbbbb']) mkdirSync(join(root, id, '.users'), { recursive: true });
    // A live process (the test runner's parent) still uses bbbb…; aaaa…'s user is long gone.
    writeFileSync(join(root, 'bbbbbbbbbbbbbbbb', '.users', String(process.ppid)), '');
    writeFileSync(join(root, 'aaaaaaaaaaaaaaaa', '.users', '999999999'), '');
    mkdirSync(join(root, 'not-a-build'));
    const b = build('cccccccccccccccc');
    const r = extractAssets(b.info, b.read, env);
    expect(r.removed).toEqual(['aaaaaaaaaaaaaaaa']);
    expect(existsSync(join(root, 'bbbbbbbbbbbbbbbb'))).toBe(true);
    expect(existsSync(join(root, 'not-a-build'))).toBe(true);
  });

  it('falls back to a private folder in the temp dir when the home cache is unusable, and refuses a shared one', () => {
    const blocker = join(tmp, 'blocker');
    writeFileSync(blocker, 'a file where the cache folder should be');
    const env = { XDG_CACHE_HOME: blocker, TMPDIR: join(tmp, 'tmp3') };
    const b = build('dddddddddddddddd');
    const r = extractAssets(b.info, b.read, env);
    expect(r.dir.startsWith(join(tmp, 'tmp3', 'vidx-'))).toBe(true);
    expect(r.fallbackReason).toMatch(/blocker/);
    expect(statSync(join(r.dir, '..')).mode & 0o777).toBe(0o700);

    chmodSync(join(r.dir, '..'), 0o777);
    expect(() => extractAssets(b.info, b.read, env)).toThrow(/writable by others.*set XDG_CACHE_HOME/);
  });
});
