/**
 * Benchmark of folder scans: a folder of N files (hard links of a few small generated videos, voice memos
 * and photos, 100 per subfolder) is bound to a collection of a vidx started in-process with a temp data dir;
 * measures the first scan, a rescan with nothing changed, and a rescan after 1% of the files changed
 * (relinked to other content). Identical content shares one analysis through the analysis cache, so the
 * first scan measures the per-file cost of a scan, not of the models. The last line printed is one JSON object.
 *
 *   npx tsx scripts/bench-scan.ts [--files 10000] [--keep]
 */
import { linkSync, mkdirSync, mkdtempSync, rmSync, unlinkSync, utimesSync } from 'node:fs';
import { cpus, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../src/config.js';
import { startVidx } from '../src/server.js';
import { makePhoto, makeSpeech, makeVideo } from '../test/support/folder-media.js';

const { values } = parseArgs({ options: { files: { type: 'string', default: '10000' }, keep: { type: 'boolean', default: false } } });
const files = Number(values.files);
const base = mkdtempSync(join(tmpdir(), 'vidx-bench-scan-'));
const sources = join(base, 'sources');
const folder = join(base, 'archive');
mkdirSync(sources);
const KEY = 'vidx_bench_scan_admin_key_0123456789';

const round = (n: number) => Math.round(n * 100) / 100;

try {
  const made = [
    ...['navy', 'maroon', 'green'].map((c, i) => ({ name: `clip${i}.mp4`, make: (p: string) => makeVideo(p, `CLIP ${i}`, 1, {}, c) })),
    { name: 'memo.m4a', make: (p: string) => makeSpeech(p, 'A short voice memo') },
    ...[0, 1, 2, 3].map((i) => ({ name: `photo${i}.jpg`, make: (p: string) => makePhoto(p, `PHOTO ${i}`) })),
  ];
  for (const m of made) await m.make(join(sources, m.name));
  // Everything is older than the stability window, as an archive is.
  const old = new Date(Date.now() - 3_600_000);
  for (const m of made) utimesSync(join(sources, m.name), old, old);
  const rel = (i: number) => join(`d${String(Math.floor(i / 100)).padStart(3, '0')}`, `f${i}${made[i % made.length].name.slice(made[i % made.length].name.lastIndexOf('.'))}`);
  for (let i = 0; i < files; i++) {
    if (i % 100 === 0) mkdirSync(join(folder, rel(i), '..'), { recursive: true });
    linkSync(join(sources, made[i % made.length].name), join(folder, rel(i)));
  }

  const dataDir = join(base, 'data');
  const vidx = await startVidx(loadConfig({ VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: dataDir, VIDX_LOG: 'silent', VIDX_MEDIA_ROOTS: base, VIDX_ADMIN_KEY: KEY, VIDX_MODELS_DIR: process.env.VIDX_MODELS_DIR ?? join(dataDir, 'models') }));
  const call = async (method: string, path: string, body?: unknown) =>
    (await (await fetch(`${vidx.url}${path}`, { method, headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined })).json()) as Record<string, unknown>;
  const finish = async (taskId: string) => {
    for (;;) {
      const t = await call('GET', `/tasks/${taskId}`);
      if (t.status === 'completed' || t.status === 'failed') {
        const seconds = (Date.parse(t.finished_at as string) - Date.parse(t.started_at as string)) / 1000;
        if (t.status === 'failed') throw new Error(`scan failed: ${String((t.error as { message?: string } | null)?.message)}`);
        const { failed, skipped_files: _s, ...counts } = t.result as Record<string, unknown>;
        return { seconds, counts: { ...counts, failed: (failed as unknown[]).length } };
      }
      await new Promise((r) => setTimeout(r, 100));
    }
  };
  try {
    await call('POST', '/collections', { collection_id: 'bench', name: 'Bench' });
    const f = await call('POST', '/collections/bench/folders', { path: folder, watch: false });
    const first = await finish(f.scan_task_id as string);
    const scanAgain = async () => finish((await call('POST', `/collections/bench/folders/${String(f.folder_id)}/scan`)).task_id as string);
    const unchanged = await scanAgain();
    // 1% of the files get other content (a link to another source) with a new, settled mtime.
    const changedCount = Math.max(1, Math.round(files / 100));
    const settled = new Date(Date.now() - 60_000);
    for (let k = 0; k < changedCount; k++) {
      const i = Math.floor((k * files) / changedCount);
      const same = made[i % made.length].name;
      const other = made.find((m) => m.name !== same && m.name.slice(-4) === same.slice(-4)) ?? made.find((m) => m.name !== same)!;
      unlinkSync(join(folder, rel(i)));
      linkSync(join(sources, other.name), join(folder, rel(i)));
      utimesSync(join(folder, rel(i)), settled, settled);
    }
    const changed = await scanAgain();
    console.log(JSON.stringify({
      files,
      distinct_contents: made.length,
      first_scan_s: round(first.seconds),
      first_scan_files_per_s: round(files / first.seconds),
      unchanged_rescan_s: round(unchanged.seconds),
      rescan_1pct_changed_s: round(changed.seconds),
      first: first.counts,
      unchanged: unchanged.counts,
      changed_1pct: changed.counts,
      peak_rss_mb: Math.round(process.resourceUsage().maxRSS / 1024),
      cpus: cpus().length,
    }));
  } finally {
    await vidx.close();
  }
} finally {
  if (!values.keep) rmSync(base, { recursive: true, force: true });
}
