/**
 * Builds the small media corpus the tests assert against (ffmpeg + espeak-ng + drawtext, plus
 * LibriVox recordings from pocketsphinx-testdata when installed). Every expected text and time
 * goes into manifest.json so tests never hard-code them.
 *
 *   tsx scripts/make-test-corpus.ts [outDir]     # prints the manifest as the last line
 *
 * Tests call ensureCorpus() from test/support/corpus.ts, which builds once and caches.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdir, open, readFile, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { runTool } from '../src/media/run.js';

const exec = promisify(execFile);

/** A subtitle cue or spoken sentence; seconds. */
export interface TimedText {
  start: number;
  end: number;
  text: string;
}

/** Where to find a corpus file; `path` is relative in manifest.json and absolute from ensureCorpus(). */
export interface CorpusFile {
  path: string;
}

/** Everything a test may assert against. Times in seconds, colours as [r, g, b]. */
export interface CorpusManifest {
  version: string;
  dir: string;
  /** 24 s, 640x360, 25 fps: three 8 s slides, English speech (espeak-ng) and an embedded mov_text track. */
  slides: CorpusFile & {
    durationSec: number;
    width: number;
    height: number;
    fps: number;
    audio: { sampleRate: number; channels: number; codec: string };
    slides: { start: number; end: number; title: string; body: string; color: [number, number, number] }[];
    /** Hard cuts between slides. */
    cuts: number[];
    subtitles: { codec: 'mov_text'; language: 'eng'; cues: TimedText[] };
    /** Measured from the synthesised audio: first to last sample above -34 dBFS. */
    speech: (TimedText & { language: 'en' })[];
  };
  /** 12 s German speech video with sidecars `german.de.srt` (German) and `german.en.vtt` (English). */
  german: CorpusFile & {
    durationSec: number;
    width: number;
    height: number;
    title: string;
    speech: (TimedText & { language: 'de' })[];
    sidecars: (CorpusFile & { language: string; format: 'srt' | 'vtt'; cues: TimedText[] })[];
  };
  /** 6 s, 320x240, no audio stream: 3 s colour bars then 3 s teal (one cut). */
  silent: CorpusFile & { durationSec: number; width: number; height: number; cuts: number[] };
  /** 2 s, stored 320x180 (top half red, bottom half blue), displayed rotated 90° clockwise. */
  rotated: CorpusFile & { durationSec: number; storedWidth: number; storedHeight: number; rotation: number; displayWidth: number; displayHeight: number };
  /** Audio only (.m4a, AAC 44.1 kHz stereo) of speech with transcripts per segment. */
  speech: CorpusFile & { durationSec: number; source: 'librivox' | 'espeak'; segments: (TimedText & { language: 'en' })[] };
  broken: {
    /** A text file named .mp4. */
    notMedia: CorpusFile;
    /** First half of the fast-start slides.mp4: index intact, data missing. */
    truncated: CorpusFile;
    /** First half of a non-fast-start copy: no moov atom at all. */
    truncatedNoMoov: CorpusFile;
    /** Zero bytes. */
    empty: CorpusFile;
    /** A Matroska file holding only a subtitle stream. */
    subtitlesOnly: CorpusFile;
  };
}

const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';
const FONT_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const LIBRIVOX = '/usr/share/pocketsphinx/test/data/librivox';

const SLIDES = [
  { title: 'Apfelkuchen Rezept', body: 'Zutaten: Äpfel, Zimt, Butter', color: [178, 34, 34] as [number, number, number], say: 'Today we bake an apple cake with cinnamon and butter.', cue: 'Today we bake an apple cake\nwith cinnamon and butter.' },
  { title: 'Penalty Shot Training', body: 'Keep your eyes on the ball', color: [34, 139, 34] as [number, number, number], say: 'The goalkeeper dives to the left during penalty shot training.', cue: 'The goalkeeper dives to the left\nduring penalty shot training.' },
  { title: 'Sunset over the Lake', body: 'Golden hour at seven', color: [30, 58, 138] as [number, number, number], say: 'The sun sets slowly over the quiet lake.', cue: 'The sun sets slowly over the quiet lake.' },
];
const GERMAN = [
  { at: 1.0, say: 'Guten Morgen aus Berlin. Heute scheint die Sonne.', en: 'Good morning from Berlin. Today the sun is shining.' },
  { at: 6.5, say: 'Am Abend gibt es leichten Regen.', en: 'In the evening there will be light rain.' },
];
const LIBRIVOX_SEGMENTS = [
  { id: 'sense_and_sensibility_01_austen_64kb-0870', text: 'and mister john dashwood had then leisure to consider how much there might be prudently in his power to do for them' },
  { id: 'sense_and_sensibility_01_austen_64kb-0880', text: 'he was not an ill disposed young man' },
  { id: 'sense_and_sensibility_01_austen_64kb-0890', text: 'unless to be rather cold hearted and rather selfish is to be ill disposed' },
];

const hex = (c: [number, number, number]): string => `0x${c.map((v) => v.toString(16).padStart(2, '0')).join('')}`;
const r2 = (n: number): number => Math.round(n * 100) / 100;

async function ff(args: string[]): Promise<void> {
  await runTool('ffmpeg', ['-hide_banner', '-nostdin', '-nostats', '-v', 'error', '-y', ...args]);
}

async function ffprobeJson(file: string, entries: string): Promise<unknown> {
  const { stdout } = await runTool('ffprobe', ['-v', 'error', '-of', 'json', '-show_entries', entries, file]);
  return JSON.parse(stdout.toString('utf8'));
}

/** Runs tasks at most `n` at a time (two cores). */
async function limit<T>(n: number, tasks: (() => Promise<T>)[]): Promise<T[]> {
  const out: T[] = new Array(tasks.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: n }, async () => {
      while (next < tasks.length) {
        const i = next++;
        out[i] = await tasks[i]();
      }
    }),
  );
  return out;
}

/**
 * Synthesises speech with espeak-ng and measures where it is audible (espeak pads with silence).
 * @example
 * const { duration, first, last } = await speak('Hello there.', 'en', '/tmp/hello.wav');
 */
export async function speak(text: string, voice: 'en' | 'de', out: string): Promise<{ duration: number; first: number; last: number }> {
  await exec('espeak-ng', ['-v', voice, '-s', '160', '-w', out, text]);
  const buf = await readFile(out);
  let pos = 12;
  let rate = 22050;
  let dataStart = -1;
  let dataLen = 0;
  while (pos + 8 <= buf.length) {
    const id = buf.toString('latin1', pos, pos + 4);
    const len = buf.readUInt32LE(pos + 4);
    if (id === 'fmt ') rate = buf.readUInt32LE(pos + 12);
    if (id === 'data') {
      dataStart = pos + 8;
      dataLen = Math.min(len, buf.length - dataStart);
      break;
    }
    pos += 8 + len + (len % 2);
  }
  if (dataStart < 0) throw new Error(`espeak-ng wrote no audio data to ${out}`);
  const n = Math.floor(dataLen / 2);
  const loud = 0.02 * 32768;
  let first = -1;
  let last = -1;
  for (let i = 0; i < n; i++) {
    if (Math.abs(buf.readInt16LE(dataStart + i * 2)) > loud) {
      if (first < 0) first = i;
      last = i;
    }
  }
  return { duration: n / rate, first: Math.max(0, first) / rate, last: Math.max(0, last) / rate };
}

function srtTime(t: number): string {
  const ms = Math.round(t * 1000);
  const p = (v: number, w = 2): string => String(v).padStart(w, '0');
  return `${p(Math.floor(ms / 3600000))}:${p(Math.floor(ms / 60000) % 60)}:${p(Math.floor(ms / 1000) % 60)},${p(ms % 1000, 3)}`;
}

/**
 * SubRip text of timed cues.
 * @example
 * toSrt([{ start: 1, end: 2.5, text: 'Hello' }]); // '1\n00:00:01,000 --> 00:00:02,500\nHello\n'
 */
export function toSrt(cues: TimedText[]): string {
  return cues.map((c, i) => `${i + 1}\n${srtTime(c.start)} --> ${srtTime(c.end)}\n${c.text}\n`).join('\n');
}

async function buildSlides(dir: string, tmp: string): Promise<CorpusManifest['slides']> {
  const spoken = await Promise.all(SLIDES.map((s, i) => speak(s.say, 'en', join(tmp, `slide${i}.wav`))));
  const speech = SLIDES.map((s, i) => {
    const at = i * 8 + 1;
    return { start: r2(at + spoken[i].first), end: r2(at + spoken[i].last), text: s.say, language: 'en' as const };
  });
  const cues = SLIDES.map((s, i) => ({ start: i * 8 + 1, end: Math.min(i * 8 + 7.5, Math.ceil((speech[i].end + 0.4) * 10) / 10), text: s.cue }));
  await writeFile(join(tmp, 'slides.srt'), toSrt(cues));
  const inputs: string[] = [];
  const filters: string[] = [];
  for (const [i, s] of SLIDES.entries()) {
    await writeFile(join(tmp, `title${i}.txt`), s.title);
    await writeFile(join(tmp, `body${i}.txt`), s.body);
    inputs.push('-f', 'lavfi', '-i', `color=c=${hex(s.color)}:s=640x360:r=25:d=8`);
    filters.push(
      `[${i}:v]drawtext=fontfile=${FONT_BOLD}:textfile=${join(tmp, `title${i}.txt`)}:fontsize=44:fontcolor=white:x=(w-text_w)/2:y=120,` +
        `drawtext=fontfile=${FONT}:textfile=${join(tmp, `body${i}.txt`)}:fontsize=26:fontcolor=white:x=(w-text_w)/2:y=200[v${i}]`,
    );
  }
  inputs.push('-f', 'lavfi', '-i', 'anullsrc=r=48000:cl=stereo:d=24');
  for (let i = 0; i < SLIDES.length; i++) inputs.push('-i', join(tmp, `slide${i}.wav`));
  inputs.push('-i', join(tmp, 'slides.srt'));
  filters.push('[v0][v1][v2]concat=n=3:v=1:a=0,format=yuv420p[v]');
  for (let i = 0; i < SLIDES.length; i++) filters.push(`[${4 + i}:a]adelay=${(i * 8 + 1) * 1000}:all=1[s${i}]`);
  filters.push('[3:a][s0][s1][s2]amix=inputs=4:duration=first:normalize=0[a]');
  await ff([
    ...inputs, '-filter_complex', filters.join(';'), '-map', '[v]', '-map', '[a]', '-map', '7:s',
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '26', '-g', '50', '-c:a', 'aac', '-b:a', '96k', '-ar', '48000', '-ac', '2',
    '-c:s', 'mov_text', '-metadata:s:s:0', 'language=eng', '-metadata', 'title=vidx test slides', '-movflags', '+faststart', '-t', '24', join(dir, 'slides.mp4'),
  ]);
  return {
    path: 'slides.mp4', durationSec: 24, width: 640, height: 360, fps: 25,
    audio: { sampleRate: 48000, channels: 2, codec: 'aac' },
    slides: SLIDES.map((s, i) => ({ start: i * 8, end: i * 8 + 8, title: s.title, body: s.body, color: s.color })),
    cuts: [8, 16],
    subtitles: { codec: 'mov_text', language: 'eng', cues },
    speech,
  };
}

async function buildGerman(dir: string, tmp: string): Promise<CorpusManifest['german']> {
  const spoken = await Promise.all(GERMAN.map((g, i) => speak(g.say, 'de', join(tmp, `de${i}.wav`))));
  const speech = GERMAN.map((g, i) => ({ start: r2(g.at + spoken[i].first), end: r2(g.at + spoken[i].last), text: g.say, language: 'de' as const }));
  const deCues = GERMAN.map((g, i) => ({ start: g.at, end: Math.ceil((speech[i].end + 0.4) * 10) / 10, text: g.say }));
  const enCues = GERMAN.map((g, i) => ({ ...deCues[i], text: g.en }));
  const title = 'Wetterbericht Berlin';
  await writeFile(join(tmp, 'de-title.txt'), title);
  await writeFile(join(dir, 'german.de.srt'), toSrt(deCues));
  // WebVTT with the features a parser must skip: header text, a NOTE, cue ids, settings, voice/class tags.
  const vtt = ['WEBVTT - vidx test', '', 'NOTE English translation of the German weather report', '',
    ...enCues.flatMap((c, i) => [`cue-${i + 1}`, `${srtTime(c.start).replace(',', '.')} --> ${srtTime(c.end).replace(',', '.')} align:start line:90%`, i === 0 ? `<v Reporter><c.yellow>${c.text}</c></v>` : c.text, ''])].join('\n');
  await writeFile(join(dir, 'german.en.vtt'), vtt);
  const delays = GERMAN.map((g, i) => `[${2 + i}:a]adelay=${Math.round(g.at * 1000)}:all=1[s${i}]`);
  await ff([
    '-f', 'lavfi', '-i', 'color=c=0x404040:s=480x270:r=25:d=12', '-f', 'lavfi', '-i', 'anullsrc=r=44100:cl=mono:d=12',
    ...GERMAN.flatMap((_, i) => ['-i', join(tmp, `de${i}.wav`)]),
    '-filter_complex', [`[0:v]drawtext=fontfile=${FONT_BOLD}:textfile=${join(tmp, 'de-title.txt')}:fontsize=36:fontcolor=white:x=(w-text_w)/2:y=(h-text_h)/2,format=yuv420p[v]`, ...delays, '[1:a][s0][s1]amix=inputs=3:duration=first:normalize=0[a]'].join(';'),
    '-map', '[v]', '-map', '[a]', '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '28', '-g', '50', '-c:a', 'aac', '-b:a', '64k',
    '-metadata:s:a:0', 'language=deu', '-movflags', '+faststart', '-t', '12', join(dir, 'german.mp4'),
  ]);
  return {
    path: 'german.mp4', durationSec: 12, width: 480, height: 270, title, speech,
    sidecars: [
      { path: 'german.de.srt', language: 'de', format: 'srt', cues: deCues },
      { path: 'german.en.vtt', language: 'en', format: 'vtt', cues: enCues },
    ],
  };
}

async function buildSilent(dir: string): Promise<CorpusManifest['silent']> {
  await ff([
    '-f', 'lavfi', '-i', 'smptebars=s=320x240:r=25:d=3', '-f', 'lavfi', '-i', 'color=c=0x008080:s=320x240:r=25:d=3',
    '-filter_complex', '[0:v][1:v]concat=n=2:v=1:a=0,format=yuv420p[v]', '-map', '[v]',
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '28', '-g', '50', '-movflags', '+faststart', join(dir, 'silent.mp4'),
  ]);
  return { path: 'silent.mp4', durationSec: 6, width: 320, height: 240, cuts: [3] };
}

/** ffprobe's display-matrix angle (counter-clockwise degrees), or undefined. */
async function matrixRotation(file: string): Promise<number | undefined> {
  const j = (await ffprobeJson(file, 'stream_side_data=rotation')) as { streams?: { side_data_list?: { rotation?: number }[] }[] };
  return j.streams?.[0]?.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
}

async function buildRotated(dir: string, tmp: string): Promise<CorpusManifest['rotated']> {
  const plain = join(tmp, 'plain.mp4');
  const out = join(dir, 'rotated.mp4');
  await ff(['-f', 'lavfi', '-i', 'color=c=red:s=320x90:r=25:d=2', '-vf', 'pad=320:180:0:0:blue,format=yuv420p', '-c:v', 'libx264', '-preset', 'veryfast', '-g', '50', plain]);
  // A phone held upright stores landscape pixels with a matrix saying "turn 90° clockwise" (ffprobe: -90).
  // ffmpeg 5 sets it from the legacy rotate tag (which its muxer reads counter-clockwise); newer ffmpeg has -display_rotation.
  await ff(['-i', plain, '-map', '0', '-c', 'copy', '-metadata:s:v:0', 'rotate=270', out]);
  if ((await matrixRotation(out)) !== -90) await ff(['-display_rotation', '-90', '-i', plain, '-map', '0', '-c', 'copy', out]);
  const got = await matrixRotation(out);
  if (got !== -90) throw new Error(`could not write a display matrix with this ffmpeg (got ${got})`);
  return { path: 'rotated.mp4', durationSec: 2, storedWidth: 320, storedHeight: 180, rotation: 90, displayWidth: 180, displayHeight: 320 };
}

async function buildSpeech(dir: string, tmp: string): Promise<CorpusManifest['speech']> {
  const segments: CorpusManifest['speech']['segments'] = [];
  const parts: string[] = [];
  let source: 'librivox' | 'espeak' = 'librivox';
  if (LIBRIVOX_SEGMENTS.every((s) => existsSync(join(LIBRIVOX, `${s.id}.wav`)))) {
    let t = 0;
    for (const s of LIBRIVOX_SEGMENTS) {
      const j = (await ffprobeJson(join(LIBRIVOX, `${s.id}.wav`), 'format=duration')) as { format: { duration: string } };
      const d = Number(j.format.duration);
      segments.push({ start: r2(t), end: r2(t + d), text: s.text, language: 'en' });
      parts.push(join(LIBRIVOX, `${s.id}.wav`));
      t += d;
    }
  } else {
    source = 'espeak';
    let t = 0;
    for (const [i, s] of LIBRIVOX_SEGMENTS.entries()) {
      const f = join(tmp, `speech${i}.wav`);
      const m = await speak(s.text, 'en', f);
      segments.push({ start: r2(t + m.first), end: r2(t + m.last), text: s.text, language: 'en' });
      parts.push(f);
      t += m.duration;
    }
  }
  await ff([
    ...parts.flatMap((p) => ['-i', p]),
    '-filter_complex', `${parts.map((_, i) => `[${i}:a]aresample=44100,aformat=channel_layouts=mono[p${i}]`).join(';')};${parts.map((_, i) => `[p${i}]`).join('')}concat=n=${parts.length}:v=0:a=1[a]`,
    '-map', '[a]', '-ac', '2', '-c:a', 'aac', '-b:a', '96k', '-metadata', 'title=Sense and Sensibility (excerpt)', '-movflags', '+faststart', join(dir, 'speech.m4a'),
  ]);
  return { path: 'speech.m4a', durationSec: segments.at(-1)!.end, source, segments };
}

async function firstHalf(src: string, dst: string): Promise<void> {
  const data = await readFile(src);
  await writeFile(dst, data.subarray(0, Math.floor(data.length / 2)));
}

async function buildBroken(dir: string, tmp: string): Promise<CorpusManifest['broken']> {
  await writeFile(join(dir, 'not-media.mp4'), 'This is a plain text file pretending to be a video.\nIt has no media streams at all.\n');
  await (await open(join(dir, 'empty.mp4'), 'w')).close();
  await firstHalf(join(dir, 'slides.mp4'), join(dir, 'truncated.mp4'));
  const slow = join(tmp, 'moov-last.mp4');
  await ff(['-i', join(dir, 'slides.mp4'), '-map', '0', '-c', 'copy', slow]);
  await firstHalf(slow, join(dir, 'truncated-nomoov.mp4'));
  await ff(['-i', join(dir, 'german.de.srt'), '-map', '0', '-c:s', 'srt', join(dir, 'subtitles-only.mkv')]);
  return {
    notMedia: { path: 'not-media.mp4' },
    truncated: { path: 'truncated.mp4' },
    truncatedNoMoov: { path: 'truncated-nomoov.mp4' },
    empty: { path: 'empty.mp4' },
    subtitlesOnly: { path: 'subtitles-only.mkv' },
  };
}

/**
 * Builds the corpus into `dir` (created; existing files are overwritten) and writes manifest.json
 * with paths relative to `dir`. Returns the manifest with relative paths.
 * @example
 * const m = await buildCorpus('/tmp/corpus', 'dev'); // ~10 s on 2 cores
 */
export async function buildCorpus(dir: string, version: string): Promise<CorpusManifest> {
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, '.work');
  await mkdir(tmp, { recursive: true });
  try {
    const [slides, german, silent, rotated, speech] = await limit(2, [
      () => buildSlides(dir, tmp),
      () => buildGerman(dir, tmp),
      () => buildSilent(dir),
      () => buildRotated(dir, tmp),
      () => buildSpeech(dir, tmp),
    ] as (() => Promise<unknown>)[]);
    const manifest = {
      version,
      dir,
      slides,
      german,
      silent,
      rotated,
      speech,
      broken: await buildBroken(dir, tmp),
    } as CorpusManifest;
    await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
    return manifest;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = resolve(process.argv[2] ?? join('test', '.tmp', 'corpus', 'manual'));
  const t0 = Date.now();
  const m = await buildCorpus(out, 'manual');
  console.error(`corpus built in ${((Date.now() - t0) / 1000).toFixed(1)} s at ${out}`);
  console.log(JSON.stringify(m));
}
