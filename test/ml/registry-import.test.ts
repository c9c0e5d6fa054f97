import { execFileSync } from 'node:child_process';
import { cpSync, createWriteStream, existsSync, mkdtempSync, readdirSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import tar from 'tar-stream';
import { deadPort } from '../support/dead-port.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureModels, type FixtureSet } from '../../scripts/make-fixture-models.js';
import { ARCHIVE_ENTRIES, exportModel, importModelArchive, unpackBounds } from '../../src/ml/registry/archive.js';
import { HubUnreachableError } from '../../src/ml/registry/download.js';
import { render } from '../../src/messages/index.js';
import { importModelFolder, ModelImportError } from '../../src/ml/registry/import.js';
import { parseManifest, type Manifest } from '../../src/ml/registry/manifest.js';
import { pull, type PullProgress } from '../../src/ml/registry/pull.js';
import { modelStatus } from '../../src/ml/registry/status.js';

let tmp: string;
let fixtures: FixtureSet;
let manifest: Manifest;

beforeAll(async () => {
  tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'registry-import-'));
  fixtures = await makeFixtureModels(join(tmp, 'hub'));
  manifest = parseManifest(fixtures.manifest);
});

afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const freshDir = (name = 'models-') => mkdtempSync(join(tmp, name));
const model = (id: string) => manifest.models.find((m) => m.id === id)!;
/** A copy of a stand-in model's repository folder as the hub lays it out (what `hf download` writes). */
function hubFolder(id: string): string {
  const dir = join(freshDir('download-'), id);
  cpSync(join(fixtures.hubDir, ...model(id).repo.split('/')), dir, { recursive: true });
  writeFileSync(join(dir, 'README.md'), '# a file of the repo vidx does not need\n');
  return dir;
}
/** The models dir holds the model or nothing of it, and no scratch folder is left behind. */
function expectNothingInstalled(modelsDir: string, id: string) {
  expect(modelStatus(model(id), modelsDir).state).toBe('missing');
  expect(readdirSync(modelsDir).filter((n) => n.startsWith('.'))).toEqual([]);
}
async function refusal(p: Promise<unknown>): Promise<ModelImportError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ModelImportError);
  return err as ModelImportError;
}

describe('models import', () => {
  it('installs a folder in the hub layout, telling the model by its files', async () => {
    const modelsDir = freshDir();
    const done = await importModelFolder(hubFolder('tiny-e5'), { manifest, modelsDir });
    expect(done.modelId).toBe('tiny-e5');
    expect(done.files).toBe(model('tiny-e5').files.length);
    expect(modelStatus(model('tiny-e5'), modelsDir).state).toBe('installed');
    expect(existsSync(join(modelsDir, ...model('tiny-e5').repo.split('/'), 'README.md'))).toBe(false);
  });

  it('round-trips an exported archive, and takes a gzipped tar of a hub folder wrapped in one folder', async () => {
    const from = freshDir();
    await importModelFolder(hubFolder('tiny-whisper'), { manifest, modelsDir: from });
    const archive = join(freshDir('archive-'), 'tiny-whisper.tar');
    const bytes = await exportModel(model('tiny-whisper'), from, createWriteStream(archive));
    expect(bytes).toBeGreaterThan(0);
    const to = freshDir();
    expect((await importModelArchive(archive, { manifest, modelsDir: to })).modelId).toBe('tiny-whisper');
    expect(modelStatus(model('tiny-whisper'), to).state).toBe('installed');

    const folder = hubFolder('tiny-clip');
    const tgz = join(freshDir('archive-'), 'clip.tar.gz');
    execFileSync('tar', ['-czf', tgz, '-C', join(folder, '..'), 'tiny-clip']);
    const third = freshDir();
    expect((await importModelArchive(tgz, { manifest, modelsDir: third })).modelId).toBe('tiny-clip');
    expect(readdirSync(third).filter((n) => n.startsWith('.'))).toEqual([]);
  });

  it('refuses a missing file, a wrong size and a wrong hash by name, installing nothing', async () => {
    const e5 = model('tiny-e5');
    const onnx = e5.files.find((f) => f.path.endsWith('.onnx'))!.path;
    const modelsDir = freshDir();

    const missing = hubFolder('tiny-e5');
    rmSync(join(missing, 'tokenizer.json'));
    const a = await refusal(importModelFolder(missing, { manifest, modelsDir }));
    expect(a.text.key).toBe('import_missing_file');
    expect(a.message).toContain('"tokenizer.json" is missing');

    const short = hubFolder('tiny-e5');
    truncateSync(join(short, onnx), 10);
    const b = await refusal(importModelFolder(short, { manifest, modelsDir, modelId: 'tiny-e5' }));
    expect(b.text.key).toBe('import_wrong_size');
    expect(b.message).toContain(`"${onnx}" has 10 bytes`);

    const changed = hubFolder('tiny-e5');
    const config = join(changed, 'config.json');
    const size = e5.files.find((f) => f.path === 'config.json')!.size!;
    writeFileSync(config, 'x'.repeat(size)); // same size, other bytes
    const c = await refusal(importModelFolder(changed, { manifest, modelsDir, modelId: 'tiny-e5' }));
    expect(c.text.key).toBe('import_wrong_hash');
    expect(c.message).toContain('"config.json"');
    expectNothingInstalled(modelsDir, 'tiny-e5');
  });

  it('checks a file the manifest knows only a rounded size of (as the shipped one does) against that size', async () => {
    const onnx = model('tiny-e5').files.find((f) => f.path.endsWith('.onnx'))!;
    const rounded = parseManifest({
      ...fixtures.manifest,
      models: fixtures.manifest.models.map((m) => (m.id === 'tiny-e5' ? { ...m, files: m.files.map((f) => (f.path === onnx.path ? { path: f.path, approxSize: Math.round(f.size / 1000) * 1000 } : f)) } : m)),
    });
    const modelsDir = freshDir();
    const cut = hubFolder('tiny-e5');
    truncateSync(join(cut, onnx.path), Math.round(onnx.size! / 2));
    const err = await refusal(importModelFolder(cut, { manifest: rounded, modelsDir, modelId: 'tiny-e5' }));
    expect(err.text.key).toBe('import_size_off');
    expect(err.message).toContain(`"${onnx.path}" has ${Math.round(onnx.size! / 2)} bytes, about`);
    expectNothingInstalled(modelsDir, 'tiny-e5');
    expect((await importModelFolder(hubFolder('tiny-e5'), { manifest: rounded, modelsDir })).modelId).toBe('tiny-e5');
  });

  it('refuses a link out of the folder and an archive member escaping it', async () => {
    const modelsDir = freshDir();
    const linked = hubFolder('tiny-e5');
    const outside = join(freshDir('elsewhere-'), 'config.json');
    cpSync(join(linked, 'config.json'), outside);
    rmSync(join(linked, 'config.json'));
    symlinkSync(outside, join(linked, 'config.json'));
    const a = await refusal(importModelFolder(linked, { manifest, modelsDir }));
    expect(a.text.key).toBe('import_unsafe_path');
    expect(a.message).toContain('"config.json" leads outside');

    const archive = join(freshDir('archive-'), 'escape.tar');
    const pack = tar.pack();
    const written = pipeline(pack, createWriteStream(archive));
    pack.entry({ name: 'config.json' }, '{}');
    pack.entry({ name: '../../escaped.txt' }, 'out');
    pack.finalize();
    await written;
    const b = await refusal(importModelArchive(archive, { manifest, modelsDir }));
    expect(b.text.key).toBe('import_unsafe_path');
    expect(b.message).toContain('"../../escaped.txt"');
    expect(existsSync(join(modelsDir, '..', 'escaped.txt'))).toBe(false);

    const withLink = join(freshDir('archive-'), 'link.tar');
    const linkPack = tar.pack();
    const linkWritten = pipeline(linkPack, createWriteStream(withLink));
    linkPack.entry({ name: 'tokenizer.json', type: 'symlink', linkname: '/etc/passwd' }, '');
    linkPack.finalize();
    await linkWritten;
    const c = await refusal(importModelArchive(withLink, { manifest, modelsDir }));
    expect(c.text.key).toBe('import_unsafe_path');
    expect(c.message).toContain('"tokenizer.json" leads outside');

    const notTar = join(freshDir('archive-'), 'notes.tar');
    writeFileSync(notTar, 'x'.repeat(2000));
    expect((await refusal(importModelArchive(notTar, { manifest, modelsDir }))).text.key).toBe('import_not_archive');
    expectNothingInstalled(modelsDir, 'tiny-e5');
  });
});

describe('a pull without a hub', () => {
  async function pullFrom(hubUrl: string): Promise<{ err: unknown; progress: PullProgress[] }> {
    const progress: PullProgress[] = [];
    const err = await pull(['tiny-e5'], { hubUrl, modelsDir: freshDir(), manifest, retryDelayMs: 10_000, onProgress: (p) => progress.push(p) }).then(() => null, (e: unknown) => e);
    return { err, progress };
  }

  it('fails at once, naming the hub, saying the machine seems offline and how to import', async () => {
    const hubUrl = `http://127.0.0.1:${await deadPort()}`;
    const { err, progress } = await pullFrom(hubUrl);
    expect(err).toBeInstanceOf(HubUnreachableError);
    const e = err as HubUnreachableError;
    expect(e.hub).toBe(hubUrl);
    expect(e.message).toContain(`cannot reach the model hub at ${hubUrl} (ECONNREFUSED)`);
    expect(e.message).toContain('seems to be offline');
    expect(e.message).toContain('vidx models import');
    // The model and its repository are named, and where to get it (issue 42): no placeholder left but the folder.
    const entry = manifest.models.find((m) => m.id === 'tiny-e5')!;
    expect(e.message).toContain('`vidx models export tiny-e5` there');
    expect(e.message).toContain(`the repository ${entry.repo} from ${hubUrl} (\`HF_ENDPOINT=${hubUrl} hf download ${entry.repo} --revision ${entry.revision} --local-dir <folder>\`)`);
    expect(e.message).not.toMatch(/<repo>|<id>/);
    expect(render(e.text, 'de')).toContain(`das Repository ${entry.repo} von ${hubUrl}`);
    expect(progress.filter((p) => p.type === 'retry')).toEqual([]);
  });

  it('says a hub on a port fetch never connects to must move, in both languages, not that the machine is offline', async () => {
    const { err } = await pullFrom('http://127.0.0.1:6000');
    expect(err).toBeInstanceOf(HubUnreachableError);
    const e = err as HubUnreachableError;
    expect(e.text.key).toBe('hub_port_blocked');
    expect(e.retryable).toBe(false);
    expect(e.message).toContain('port 6000 is one that downloads never connect to');
    expect(e.message).not.toContain('offline');
    const german = render(e.text, 'de');
    expect(german).toContain('Port 6000 gehört zu denen');
    expect(german).not.toMatch(/bad port/);
  });

  it('fails at once when the hub resets every connection, after one attempt', async () => {
    let connections = 0;
    const resetting: Server = createServer((socket) => {
      connections++;
      socket.resetAndDestroy();
    });
    await new Promise<void>((r) => resetting.listen(0, '127.0.0.1', r));
    try {
      const hubUrl = `http://127.0.0.1:${(resetting.address() as { port: number }).port}/`;
      const { err, progress } = await pullFrom(hubUrl);
      expect(err).toBeInstanceOf(HubUnreachableError);
      expect((err as HubUnreachableError).message).toContain(`at ${hubUrl} (`);
      expect(progress.filter((p) => p.type === 'retry')).toEqual([]);
      expect(connections).toBe(1);
    } finally {
      await new Promise<void>((r) => resetting.close(() => r()));
    }
  });
});

describe('models import cannot fill the disk (issue 43)', () => {
  /** A tar.gz holding `members`: each a name and a size of zeros (a gzip of zeros is a thousand times smaller). */
  async function zeroArchive(members: [string, number][]): Promise<string> {
    const path = join(freshDir('bomb-'), 'bomb.tar.gz');
    const pack = tar.pack();
    const written = pipeline(pack, createGzip({ level: 9 }), createWriteStream(path));
    const block = Buffer.alloc(1024 * 1024);
    for (const [name, size] of members) {
      let done!: () => void;
      const finished = new Promise<void>((r) => (done = r));
      const entry = pack.entry({ name, size }, () => done());
      for (let left = size; left > 0; left -= block.length) if (!entry.write(left >= block.length ? block : block.subarray(0, left))) await new Promise((r) => entry.once('drain', r));
      entry.end();
      await finished;
    }
    pack.finalize();
    await written;
    return path;
  }

  it('bounds each file by the model’s expected size and all files by the largest model’s, writing nothing it does not need', () => {
    const one = unpackBounds({ manifest, modelsDir: '', modelId: 'tiny-e5' });
    const expected = model('tiny-e5').files.reduce((s, f) => s + (f.size ?? f.approxSize ?? 0), 0);
    expect(one.totalBytes).toBeGreaterThan(expected);
    expect(one.totalBytes).toBeLessThan(expected * 1.25 + (model('tiny-e5').files.length + 1) * 1024 * 1024 + 65_536);
    expect(one.fileBytes.has('README.md')).toBe(false);
  });

  it('stops a gzip bomb at the first file over its bound and leaves nothing behind', async () => {
    const modelsDir = freshDir();
    const big = model('tiny-e5').files.reduce((a, f) => ((f.size ?? 0) > (a.size ?? 0) ? f : a));
    const bomb = await zeroArchive([[big.path, 300 * 1024 * 1024]]);
    const err = await refusal(importModelArchive(bomb, { manifest, modelsDir, modelId: 'tiny-e5' }));
    expect(err.text.key).toBe('import_too_large');
    expect(err.message).toContain(big.path);
    expectNothingInstalled(modelsDir, 'tiny-e5');
  }, 60_000);

  it('refuses an archive of more members than any model has, and never names the data dir', async () => {
    const modelsDir = freshDir();
    const many = join(freshDir('many-'), 'many.tar');
    const pack = tar.pack();
    const written = pipeline(pack, createWriteStream(many));
    for (let i = 0; i <= ARCHIVE_ENTRIES; i++) pack.entry({ name: `x/${i}` }, '');
    pack.finalize();
    await written;
    const err = await refusal(importModelArchive(many, { manifest, modelsDir }));
    expect(err.text.key).toBe('import_too_many_entries');
    expectNothingInstalled(modelsDir, 'tiny-e5');
    // What the tar reader says of a damaged archive comes without the path of the scratch folder it wrote to.
    const cut = join(freshDir('cut-'), 'cut.tar');
    writeFileSync(cut, Buffer.alloc(700, 1));
    const refused = await refusal(importModelArchive(cut, { manifest, modelsDir }));
    expect(refused.message).not.toContain(modelsDir);
  }, 60_000);
});
