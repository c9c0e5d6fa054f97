/**
 * A narrated slide talk as people record them (issue 42): coloured slides with a title, a hard cut between
 * them, and the narration's subtitles beside it (`talk.srt`). The slide changes at 12 s while the last
 * sentence about the first slide runs on to 12.5 s and the sentence about the second starts at 13 s: the
 * picture, the words and the chapters each have a time of their own to agree on.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { srt, type Cue } from './subtitled-media.js';

const run = promisify(execFile);
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

/** One slide: its card colour (RGB), its title and how long it shows. */
export interface Slide {
  colour: [number, number, number];
  title: string;
  seconds: number;
}

/** The talk's slides: a navy budget slide until 12 s, then a green solar slide. */
export const TALK_SLIDES: Slide[] = [
  { colour: [0x1e, 0x3a, 0x5f], title: 'Budget review', seconds: 12 },
  { colour: [0x3f, 0x6f, 0x1e], title: 'Solar panels', seconds: 12 },
];

/** The narration: the budget sentence runs past the slide change (12 s) to 12.5 s; the solar one starts at 13 s. */
export const TALK_CUES: Cue[] = [
  [1, 5.5, 'Welcome to the budget review of the community hall.'],
  [6.5, 12.5, 'Spending went up this year because the old heating broke down.'],
  [13, 17.5, 'Solar panels on the roof made more power than we used.'],
  [18.5, 23, 'The extra power went back into the grid every sunny afternoon.'],
];

const hex = ([r, g, b]: [number, number, number]) => `0x${[r, g, b].map((c) => c.toString(16).padStart(2, '0')).join('')}`;

/**
 * Writes `slides` as an H.264 video of 640×360 at 10 fps, each a card of its colour with its title.
 * @example
 * await slideCards('/tmp/m/talk.mp4', TALK_SLIDES);
 */
export async function slideCards(out: string, slides: Slide[]): Promise<void> {
  const cards = slides.map((s, i) => `color=c=${hex(s.colour)}:s=640x360:r=10:d=${s.seconds},drawtext=fontfile=${FONT}:text='${s.title.replace(/'/g, '')}':fontsize=44:fontcolor=white:x=40:y=60[s${i}]`);
  const graph = `${cards.join(';')};${slides.map((_, i) => `[s${i}]`).join('')}concat=n=${slides.length}:v=1[v]`;
  await run('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-filter_complex', graph, '-map', '[v]', '-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p', out]);
}

/**
 * Writes each cue spoken (espeak-ng) and stretched to fill its cue's time, at its cue's time, as one WAV.
 * @example
 * await narration('/tmp/m/voice.wav', TALK_CUES, 24);
 */
export async function narration(out: string, cues: Cue[], seconds: number): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'vidx-voice-'));
  try {
    const parts: string[] = [];
    const chains: string[] = [];
    for (const [i, [start, end, text]] of cues.entries()) {
      const wav = join(dir, `${i}.wav`);
      await run('espeak-ng', ['-v', 'en', '-s', '165', '-w', wav, text]);
      // espeak-ng writes 16-bit mono PCM after a 44-byte header.
      const { rate, bytes } = wavSize(await readFile(wav));
      const spoken = bytes / (rate * 2);
      parts.push('-i', wav);
      chains.push(`[${i}:a]atempo=${Math.min(2, Math.max(0.5, spoken / (end - start))).toFixed(4)},adelay=${Math.round(start * 1000)},apad=whole_dur=${seconds}[a${i}]`);
    }
    const mix = `${chains.join(';')};${cues.map((_, i) => `[a${i}]`).join('')}amix=inputs=${cues.length}:normalize=0,atrim=0:${seconds}[out]`;
    await run('ffmpeg', ['-hide_banner', '-v', 'error', '-y', ...parts, '-filter_complex', mix, '-map', '[out]', '-ar', '22050', '-ac', '1', out]);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function wavSize(wav: Buffer): { rate: number; bytes: number } {
  return { rate: wav.readUInt32LE(24), bytes: wav.length - 44 };
}

/**
 * Writes `talk.mp4` ({@link TALK_SLIDES}, narrated by {@link narration}) with `talk.srt` ({@link TALK_CUES}) beside it into `dir`.
 * @example
 * const talk = await makeSlideTalk(media); // '/tmp/m/talk.mp4'
 */
export async function makeSlideTalk(dir: string): Promise<string> {
  const out = join(dir, 'talk.mp4');
  const seconds = TALK_SLIDES.reduce((sum, s) => sum + s.seconds, 0);
  const [picture, voice] = [join(dir, 'talk-picture.mp4'), join(dir, 'talk-voice.wav')];
  await Promise.all([slideCards(picture, TALK_SLIDES), narration(voice, TALK_CUES, seconds)]);
  await run('ffmpeg', ['-hide_banner', '-v', 'error', '-y', '-i', picture, '-i', voice, '-map', '0:v', '-map', '1:a', '-c:v', 'copy', '-c:a', 'aac', '-b:a', '64k', '-shortest', out]);
  await Promise.all([rm(picture), rm(voice)]);
  await writeFile(join(dir, 'talk.srt'), srt(TALK_CUES));
  return out;
}
