/**
 * Generated media with known truth for the analysis quality suite (test/quality, scripts/bench-quality.ts):
 * slide lectures whose topics change on known cuts, with espeak-ng speech and exact sidecar subtitles,
 * and a quiet clip (a slide, a blank stretch, speech without subtitles).
 *
 *   tsx scripts/quality/media.ts [outDir]     # prints the manifest as the last line
 */
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runTool } from '../../src/media/run.js';
import { speak, toSrt, type TimedText } from '../make-test-corpus.js';

const FONT_BOLD = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

/** One topic of a lecture: a slide title and what is said while it shows. */
export interface Topic {
  title: string;
  sentences: string[];
}

/** A lecture video and what is known about it. */
export interface Lecture {
  path: string;
  language: 'en' | 'de';
  durationSec: number;
  /** Slide changes (seconds); each topic's slide starts at the cut before it. */
  cuts: number[];
  topics: (Topic & { start: number; end: number })[];
  /** The sidecar subtitles beside `path` (one cue per sentence). */
  cues: TimedText[];
}

/** The quiet clip: a slide with no speech, a blank stretch, then speech that has no subtitles. */
export interface QuietClip {
  path: string;
  durationSec: number;
  cuts: number[];
  slideText: string;
  /** When the (untranscribed) speech runs. */
  speech: { start: number; end: number };
}

export interface QualityMedia {
  dir: string;
  lectures: Lecture[];
  /**
   * Three-part lectures whose subtitles fill each slide edge to edge (cues start at 0, 8 and 16 s) while
   * the slides change a frame later (8.04 and 16.08 s): each line must land in one episode only.
   */
  tight: Lecture[];
  quiet: QuietClip;
}

/** Three unrelated topics per language, so a summary that covers the video names all three. */
export const LECTURE_TOPICS: Record<'en' | 'de', Topic[]> = {
  en: [
    { title: 'Cooking Show', sentences: ['Welcome to the cooking show.', 'Today we bake fresh bread with flour, water and yeast.', 'The dough rests for one hour before baking.'] },
    { title: 'Iceland Geology', sentences: ['Iceland sits on the boundary of two tectonic plates.', 'Volcanoes and geysers shape the island.', 'Lava fields cover much of the land.'] },
    { title: 'Football Academy', sentences: ['The football academy trains young players every morning.', 'Coaches teach passing and shooting drills.', 'The best players join the senior team.'] },
  ],
  de: [
    { title: 'Wetter in Berlin', sentences: ['Morgen gibt es viel Schnee in Berlin.', 'Die Temperaturen fallen unter null Grad.', 'Am Wochenende scheint wieder die Sonne.'] },
    { title: 'Apfelkuchen backen', sentences: ['Für den Apfelkuchen brauchen wir Mehl, Butter und Zucker.', 'Die Äpfel werden geschält und in Scheiben geschnitten.', 'Der Kuchen backt eine Stunde im Ofen.'] },
    { title: 'Fahrrad reparieren', sentences: ['Ein platter Reifen lässt sich leicht flicken.', 'Zuerst nimmt man den Schlauch aus dem Mantel.', 'Dann sucht man das Loch mit Wasser.'] },
  ],
};

const COLORS = ['0xb22222', '0x228b22', '0x1e3a8a', '0x7a4b00'];
/** Speech of a topic ends this long before the slide changes; the next topic starts just after it. */
const TAIL_SEC = 1.9;
const LEAD_SEC = 0.15;
const SENTENCE_GAP_SEC = 0.25;
const r3 = (n: number): number => Math.round(n * 1000) / 1000;

async function ff(args: string[]): Promise<void> {
  await runTool('ffmpeg', ['-hide_banner', '-nostdin', '-nostats', '-v', 'error', '-y', ...args]);
}

/** Slide segments joined on hard cuts, with speech clips mixed in at given times. */
async function render(out: string, tmp: string, slides: { seconds: number; color: string; text: string | null }[], clips: { wav: string; at: number }[]): Promise<void> {
  const inputs: string[] = [];
  const filters: string[] = [];
  for (const [i, s] of slides.entries()) {
    inputs.push('-f', 'lavfi', '-i', `color=c=${s.color}:s=640x360:r=25:d=${s.seconds.toFixed(3)}`);
    if (s.text) {
      const file = join(tmp, `${out.replace(/\W/g, '_')}-${i}.txt`);
      await writeFile(file, s.text);
      filters.push(`[${i}:v]drawtext=fontfile=${FONT_BOLD}:textfile=${file}:fontsize=44:fontcolor=white:x=(w-text_w)/2:y=(h-text_h)/2[v${i}]`);
    } else filters.push(`[${i}:v]null[v${i}]`);
  }
  const total = slides.reduce((a, s) => a + s.seconds, 0);
  const silence = slides.length;
  inputs.push('-f', 'lavfi', '-i', `anullsrc=r=48000:cl=mono:d=${total.toFixed(3)}`);
  for (const c of clips) inputs.push('-i', c.wav);
  filters.push(`${slides.map((_, i) => `[v${i}]`).join('')}concat=n=${slides.length}:v=1:a=0,format=yuv420p[v]`);
  clips.forEach((c, i) => {
    filters.push(`[${silence + 1 + i}:a]aresample=48000,adelay=${Math.round(c.at * 1000)}:all=1[s${i}]`);
  });
  filters.push(`[${silence}:a]${clips.map((_, i) => `[s${i}]`).join('')}amix=inputs=${clips.length + 1}:duration=first:normalize=0[a]`);
  await ff([
    ...inputs, '-filter_complex', filters.join(';'), '-map', '[v]', '-map', '[a]',
    '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '26', '-g', '50', '-c:a', 'aac', '-b:a', '64k', '-movflags', '+faststart', '-t', total.toFixed(3), out,
  ]);
}

async function buildLecture(dir: string, tmp: string, language: 'en' | 'de'): Promise<Lecture> {
  const topics = LECTURE_TOPICS[language];
  const cues: TimedText[] = [];
  const clips: { wav: string; at: number }[] = [];
  const placed: Lecture['topics'] = [];
  const slides: { seconds: number; color: string; text: string }[] = [];
  let slideStart = 0;
  for (const [i, topic] of topics.entries()) {
    let t = slideStart + (i === 0 ? 0.5 : LEAD_SEC);
    for (const [j, sentence] of topic.sentences.entries()) {
      const wav = join(tmp, `${language}-${i}-${j}.wav`);
      const m = await speak(sentence, language, wav);
      // Place the audible part at t: the clip starts `first` seconds earlier.
      clips.push({ wav, at: Math.max(0, t - m.first) });
      cues.push({ start: r3(t), end: r3(t + (m.last - m.first)), text: sentence });
      t += m.last - m.first + SENTENCE_GAP_SEC;
    }
    const end = r3(cues[cues.length - 1].end + TAIL_SEC);
    placed.push({ ...topic, start: r3(slideStart), end });
    slides.push({ seconds: end - slideStart, color: COLORS[i % COLORS.length], text: topic.title });
    slideStart = end;
  }
  const name = `lecture-${language}`;
  await render(join(dir, `${name}.mp4`), tmp, slides, clips);
  await writeFile(join(dir, `${name}.srt`), toSrt(cues));
  return { path: `${name}.mp4`, language, durationSec: r3(slideStart), cuts: placed.slice(1).map((p) => p.start), topics: placed, cues };
}

/** One 25 fps frame: the slides of a tight lecture change this long after their subtitles do. */
const FRAME_SEC = 0.04;

async function buildTightLecture(dir: string, tmp: string, language: 'en' | 'de'): Promise<Lecture> {
  const topics = LECTURE_TOPICS[language];
  const part = 8;
  const cues: TimedText[] = topics.flatMap((topic, i) =>
    topic.sentences.map((text, j) => ({
      start: r3(i * part + (j * part) / topic.sentences.length),
      end: r3(i * part + ((j + 1) * part) / topic.sentences.length),
      text,
    })),
  );
  const slides = topics.map((topic, i) => ({ seconds: i === topics.length - 1 ? part - (topics.length - 1) * FRAME_SEC : part + FRAME_SEC, color: COLORS[i % COLORS.length], text: topic.title }));
  const name = `tight-${language}`;
  await render(join(dir, `${name}.mp4`), tmp, slides, []);
  await writeFile(join(dir, `${name}.srt`), toSrt(cues));
  const starts = slides.map((_, i) => r3(slides.slice(0, i).reduce((a, x) => a + x.seconds, 0)));
  const placed = topics.map((t, i) => ({ ...t, start: starts[i], end: i + 1 < starts.length ? starts[i + 1] : part * topics.length }));
  return { path: `${name}.mp4`, language, durationSec: part * topics.length, cuts: starts.slice(1), topics: placed, cues };
}

async function buildQuiet(dir: string, tmp: string): Promise<QuietClip> {
  const wav = join(tmp, 'quiet-speech.wav');
  const m = await speak('Thank you for watching, see you next week.', 'en', wav);
  const slideText = 'Quarterly budget';
  await render(join(dir, 'quiet.mp4'), tmp, [
    { seconds: 4, color: COLORS[0], text: slideText },
    { seconds: 4, color: COLORS[1], text: null },
    { seconds: 4, color: COLORS[2], text: null },
  ], [{ wav, at: 8.3 - m.first }]);
  return { path: 'quiet.mp4', durationSec: 12, cuts: [4, 8], slideText, speech: { start: 8.3, end: r3(8.3 + m.last - m.first) } };
}

/**
 * Builds the quality media into `dir` (paths in the result are absolute) and writes manifest.json.
 * @example
 * const media = await buildQualityMedia('/tmp/quality');
 * media.lectures[0].cuts; // [11.93, 24.1]
 */
export async function buildQualityMedia(dir: string): Promise<QualityMedia> {
  await mkdir(dir, { recursive: true });
  const tmp = join(dir, '.work');
  await mkdir(tmp, { recursive: true });
  try {
    const lectures = [await buildLecture(dir, tmp, 'en'), await buildLecture(dir, tmp, 'de')];
    const tight = [await buildTightLecture(dir, tmp, 'en'), await buildTightLecture(dir, tmp, 'de')];
    const quiet = await buildQuiet(dir, tmp);
    const media: QualityMedia = {
      dir,
      lectures: lectures.map((l) => ({ ...l, path: join(dir, l.path) })),
      tight: tight.map((l) => ({ ...l, path: join(dir, l.path) })),
      quiet: { ...quiet, path: join(dir, quiet.path) },
    };
    await writeFile(join(dir, 'manifest.json'), `${JSON.stringify(media, null, 2)}\n`);
    return media;
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const out = resolve(process.argv[2] ?? join('test', '.tmp', 'quality-media'));
  console.log(JSON.stringify(await buildQualityMedia(out)));
}
