/**
 * Benchmark of duplicates on a judged set (issue 42): which pairs vidx calls copies, against the truth.
 *
 * Real copies, each family made from one source: real footage with its sound (imageio's cockatoo) re-encoded,
 * rescaled, trimmed and recompressed at another frame rate; lavfi footage (mandelbrot, life) re-encoded,
 * rescaled and trimmed; title cards with a voice (espeak-ng) and a slide over real recorded speech
 * (pocketsphinx's LibriVox reading) re-encoded and rescaled; photos recompressed and resized.
 * Look-alikes, none a copy of another: 40 short clips of flat colours, captions and tones; title cards of
 * other colours, words and voices ("Brot backen", "Marienplatz"); slides of one template with other words and
 * voices; a test pattern in other colours; videos behind one black intro; photos and their recoloured versions.
 *
 * Everything is indexed through a folder scan of a vidx on 127.0.0.1 (no pulled models), then every pair of
 * GET …/duplicates is judged. No false pair and every real copy found is the goal.
 *
 *   npx tsx scripts/bench-duplicates.ts [--keep]
 *
 * The last line printed is one JSON object.
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs, promisify } from 'node:util';
import sharp from 'sharp';
import { loadConfig } from '../src/config.js';
import { startVidx } from '../src/server.js';
import { blackIntro, captionClip, copyVideo, lavfiVideo, narratedSlide, photo, REAL_FOOTAGE, recolouredPattern } from '../test/support/picture-media.js';

const { values } = parseArgs({ options: { keep: { type: 'boolean', default: false } } });
const KEY = 'vidx_bench_duplicates_admin_key_0123456';
const run = promisify(execFile);
const SPEECH = '/usr/share/pocketsphinx/test/data/librivox/sense_and_sensibility_01_austen_64kb-0880.wav';
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

/** The family each file belongs to: files of one family are copies of one another, all other pairs are not. */
const family = new Map<string, string>();

async function ffmpeg(args: string[]): Promise<void> {
  await run('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...args]);
}

/** Real copies: several families, each a source and its copies. */
async function copies(dir: string): Promise<void> {
  const at = (name: string, fam: string) => {
    family.set(name.replace(/\.[^.]+$/, ''), fam);
    return join(dir, name);
  };
  await copyVideo(REAL_FOOTAGE, at('cockatoo.mp4', 'cockatoo'), { crf: 20, sound: true });
  await Promise.all([lavfiVideo(at('mandelbrot.mp4', 'mandelbrot'), 'mandelbrot', 12), lavfiVideo(at('life.mp4', 'life'), 'life', 12)]);
  await narratedSlide(at('brot-backen.mp4', 'brot'), { colour: '0x8B5A2B', caption: 'Brot backen', speech: 'Heute backen wir zusammen ein frisches Brot mit Sauerteig.', lang: 'de' });
  await ffmpeg(['-f', 'lavfi', '-i', 'color=c=0x2E4A62:s=1280x720:r=25', '-i', SPEECH, '-vf', `drawtext=fontfile=${FONT}:text='Sense and Sensibility':fontsize=64:fontcolor=white:x=(w-tw)/2:y=(h-th)/2`, '-shortest', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', '-c:a', 'aac', at('reading.mp4', 'reading')]);
  await Promise.all([
    copyVideo(join(dir, 'cockatoo.mp4'), at('cockatoo-lowq.mp4', 'cockatoo'), { crf: 36, sound: true }),
    copyVideo(join(dir, 'cockatoo.mp4'), at('cockatoo-small.mp4', 'cockatoo'), { width: 480, sound: true }),
    copyVideo(join(dir, 'cockatoo.mp4'), at('cockatoo-trim.mp4', 'cockatoo'), { from: 3.3, to: 11, sound: true }),
    ffmpeg(['-i', join(dir, 'cockatoo.mp4'), '-r', '15', '-c:v', 'libx264', '-preset', 'ultrafast', '-crf', '30', '-c:a', 'libmp3lame', '-b:a', '48k', at('cockatoo-15fps.mkv', 'cockatoo')]),
    copyVideo(join(dir, 'mandelbrot.mp4'), at('mandelbrot-lowq.mp4', 'mandelbrot'), { crf: 38 }),
    copyVideo(join(dir, 'mandelbrot.mp4'), at('mandelbrot-small.mp4', 'mandelbrot'), { width: 320 }),
    copyVideo(join(dir, 'mandelbrot.mp4'), at('mandelbrot-trim.mp4', 'mandelbrot'), { from: 3.3, to: 11 }),
    copyVideo(join(dir, 'life.mp4'), at('life-trim.mp4', 'life'), { from: 4, to: 12 }),
    copyVideo(join(dir, 'brot-backen.mp4'), at('brot-backen-copy.mp4', 'brot'), { crf: 34, sound: true }),
    copyVideo(join(dir, 'reading.mp4'), at('reading-small.mp4', 'reading'), { width: 640, crf: 30, sound: true }),
    photo('astronaut.png', at('astronaut.jpg', 'astronaut')),
    photo('astronaut.png', at('astronaut-small.jpg', 'astronaut'), { width: 256, quality: 40 }),
    photo('coffee.png', at('coffee.jpg', 'coffee')),
    photo('coffee.png', at('coffee-small.jpg', 'coffee'), { width: 300, quality: 60 }),
    photo('chelsea.png', at('chelsea.jpg', 'chelsea')),
    sharp(join(REAL_FOOTAGE, '..', 'chelsea.png')).removeAlpha().resize({ width: 200 }).webp({ quality: 70 }).toFile(at('chelsea-export.webp', 'chelsea')),
  ]);
}

/** Look-alikes: none is a copy of another (each its own family). */
async function lookAlikes(dir: string, scratch: string): Promise<void> {
  const at = (name: string) => {
    family.set(name.replace(/\.[^.]+$/, ''), name);
    return join(dir, name);
  };
  const colours = ['red', 'green', 'blue', 'yellow', 'purple', 'teal', 'orange', 'gray', 'navy', 'maroon'];
  for (let i = 0; i < 40; i += 4) {
    await Promise.all([0, 1, 2, 3].map((k) => captionClip(at(`clip-${i + k + 1}.mp4`), { colour: colours[(i + k) % 10]!, caption: `Clip ${i + k + 1}`, tone: 200 + 37 * (i + k), seconds: 4 + ((i + k) % 3) })));
  }
  await Promise.all([
    narratedSlide(at('gruesse-aus-muenchen.mp4'), { colour: '0x1E50B4', caption: 'Marienplatz', speech: 'Viele Grüße aus München, wir stehen gerade auf dem Marienplatz.', lang: 'de' }),
    narratedSlide(at('slide-budget.mp4'), { colour: 'navy', caption: 'Budget review', speech: 'The budget review shows that spending went up by twelve percent.' }),
    narratedSlide(at('slide-solar.mp4'), { colour: 'navy', caption: 'Solar panels', speech: 'Our solar panels on the roof made more power than we used.' }),
    narratedSlide(at('slide-garden.mp4'), { colour: 'navy', caption: 'The garden', speech: 'The garden has tomatoes, beans and a small apple tree.' }),
    ...[0, 120, 240].map((h) => recolouredPattern(at(`testsrc-${h}.mp4`), 'testsrc2', h)),
    ...[0, 90, 180, 270].map((h) => recolouredPattern(at(`bars-${h}.mp4`), 'smptebars', h)),
    lavfiVideo(join(scratch, 'a.mp4'), 'mandelbrot', 8).then(() => blackIntro(join(scratch, 'a.mp4'), at('intro-fractal.mp4'), 3, 300)),
    lavfiVideo(join(scratch, 'b.mp4'), 'cellauto', 8).then(() => blackIntro(join(scratch, 'b.mp4'), at('intro-cells.mp4'), 3, 500)),
    lavfiVideo(join(scratch, 'c.mp4'), 'rgbtestsrc', 8).then(() => blackIntro(join(scratch, 'c.mp4'), at('intro-rgb.mp4'), 3, 700)),
    sharp(join(REAL_FOOTAGE, '..', 'astronaut.png')).removeAlpha().modulate({ hue: 150 }).jpeg({ quality: 90 }).toFile(at('astronaut-recoloured.jpg')),
    sharp(join(REAL_FOOTAGE, '..', 'chelsea.png')).removeAlpha().modulate({ hue: 90 }).jpeg({ quality: 90 }).toFile(at('chelsea-recoloured.jpg')),
  ]);
}

const base = mkdtempSync(join(tmpdir(), 'vidx-bench-duplicates-'));
const media = join(base, 'media');
const scratch = join(base, 'scratch');
mkdirSync(media);
mkdirSync(scratch);
try {
  await copies(media);
  await lookAlikes(media, scratch);
  const vidx = await startVidx(loadConfig({ VIDX_HOST: '127.0.0.1', VIDX_PORT: '0', VIDX_DATA_DIR: join(base, 'data'), VIDX_LOG: 'silent', VIDX_MEDIA_ROOTS: base, VIDX_ADMIN_KEY: KEY }), { queryEmbedder: null });
  try {
    const call = async (method: string, path: string, body?: unknown) =>
      (await (await fetch(`${vidx.url}${path}`, { method, headers: { 'x-api-key': KEY, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined })).json()) as Record<string, unknown>;
    await call('POST', '/collections', { collection_id: 'judged', name: 'Judged' });
    const t0 = performance.now();
    const folder = await call('POST', '/collections/judged/folders', { path: media, watch: false });
    for (;;) {
      const t = await call('GET', `/tasks/${folder.scan_task_id as string}`);
      if (t.status === 'failed') throw new Error(`scan failed: ${JSON.stringify(t.error)}`);
      if (t.status === 'completed') break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const indexSeconds = (performance.now() - t0) / 1000;
    const t1 = performance.now();
    const found = (await call('GET', '/collections/judged/duplicates?threshold=0')) as { groups: { items: { title: string }[]; similarity: number }[] };
    const groupMs = performance.now() - t1;
    const called = new Set<string>();
    for (const g of found.groups) {
      const titles = g.items.map((i) => i.title).sort();
      for (let i = 0; i < titles.length; i++) for (let j = i + 1; j < titles.length; j++) called.add(`${titles[i]}|${titles[j]}`);
    }
    const titles = [...family.keys()].sort();
    const truth = new Set<string>();
    for (let i = 0; i < titles.length; i++) for (let j = i + 1; j < titles.length; j++) if (family.get(titles[i]!) === family.get(titles[j]!)) truth.add(`${titles[i]}|${titles[j]}`);
    const falsePairs = [...called].filter((p) => !truth.has(p));
    const missed = [...truth].filter((p) => !called.has(p));
    for (const g of found.groups) console.log(`group ${g.similarity.toFixed(3)}: ${g.items.map((i) => i.title).join(', ')}`);
    const some = (pairs: string[]) => `${pairs.slice(0, 20).join('  ')}${pairs.length > 20 ? `  … and ${pairs.length - 20} more` : ''}`;
    if (falsePairs.length) console.log(`false pairs: ${some(falsePairs)}`);
    if (missed.length) console.log(`missed copies: ${some(missed)}`);
    console.log(
      JSON.stringify({
        bench: 'duplicates',
        items: family.size,
        real_pairs: truth.size,
        called_pairs: called.size,
        false_pairs: falsePairs.length,
        missed_pairs: missed.length,
        precision: called.size ? Math.round(((called.size - falsePairs.length) / called.size) * 1000) / 1000 : 1,
        recall: Math.round(((truth.size - missed.length) / truth.size) * 1000) / 1000,
        index_s: Math.round(indexSeconds * 10) / 10,
        groups_ms: Math.round(groupMs),
      }),
    );
  } finally {
    await vidx.close();
  }
} finally {
  if (!values.keep) rmSync(base, { recursive: true, force: true });
  else console.error(`kept ${base}`);
}
