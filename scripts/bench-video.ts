/**
 * The video the analysis benchmarks run on (scripts/bench-index.ts, scripts/bench-workers.ts).
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { runTool } from '../src/media/run.js';

const exec = promisify(execFile);
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';
const TOPICS = [
  'Quarterly Results', 'Apfelkuchen Rezept', 'Penalty Shot Training', 'Sunset over the Lake', 'Product Roadmap',
  'Team Offsite Berlin', 'Customer Feedback', 'Ice Hockey Finals', 'Garden Planning', 'Budget Review',
  'Mountain Hiking Trip', 'Kitchen Renovation', 'Summer Holiday Photos', 'Weekly Standup', 'Birthday Party',
  'Football Tactics', 'Winter Market', 'Research Update', 'Piano Lesson', 'Closing Remarks',
];


function srtTime(t: number): string {
  const ms = Math.round(t * 1000);
  const p = (v: number, w = 2) => String(v).padStart(w, '0');
  return `${p(Math.floor(ms / 3600000))}:${p(Math.floor(ms / 60000) % 60)}:${p(Math.floor(ms / 1000) % 60)},${p(ms % 1000, 3)}`;
}

/** About 23 s of speech per 30 s slide at espeak's 160 words a minute: the slide's sentence, then these. */
const DENSE = [
  'We start with the numbers from the last quarter and compare them with the plan we made in spring.',
  'Most teams delivered on time, although two projects slipped by a few weeks because of hiring.',
  'Customers asked for faster search, better summaries and an easier way to share clips with colleagues.',
];

/**
 * The benchmark video: `minutes` long, 640x360, a 30 s slide each with its topic written on it, English
 * speech (espeak-ng) and, unless `asr`, an embedded subtitle track; with `asr` the speech is dense (about
 * 23 s of every 30 s slide) so Whisper has to transcribe it. Written to `<dir>/bench.mp4`.
 * @example
 * const file = await makeBenchVideo(dir, 10, false);
 */
export async function makeBenchVideo(dir: string, minutes: number, asr: boolean): Promise<string> {
  const slideSec = 30;
  const count = Math.round((minutes * 60) / slideSec);
  const inputs: string[] = [];
  const filters: string[] = [];
  const cues: string[] = [];
  for (let i = 0; i < count; i++) {
    const topic = TOPICS[i % TOPICS.length];
    const say = `Slide ${i + 1}. Now we talk about ${topic.toLowerCase()} and what it means for the next weeks.`;
    const spoken = asr ? [say, ...DENSE].join(' ') : say;
    await exec('espeak-ng', ['-v', 'en', '-s', '160', '-w', join(dir, `s${i}.wav`), spoken]);
    writeFileSync(join(dir, `t${i}.txt`), topic);
    const hue = (i * 47) % 360;
    inputs.push('-f', 'lavfi', '-i', `color=c=0x${Buffer.from([40 + (hue % 120), 60 + ((hue * 3) % 120), 90 + ((hue * 7) % 120)]).toString('hex')}:s=640x360:r=25:d=${slideSec}`);
    filters.push(`[${i}:v]drawtext=fontfile=${FONT}:textfile=${join(dir, `t${i}.txt`)}:fontsize=40:fontcolor=white:x=(w-text_w)/2:y=150[v${i}]`);
    cues.push(`${i + 1}\n${srtTime(i * slideSec + 2)} --> ${srtTime(i * slideSec + 8)}\n${say}\n`);
  }
  writeFileSync(join(dir, 'subs.srt'), cues.join('\n'));
  inputs.push('-f', 'lavfi', '-i', `anullsrc=r=48000:cl=mono:d=${count * slideSec}`);
  for (let i = 0; i < count; i++) inputs.push('-i', join(dir, `s${i}.wav`));
  if (!asr) inputs.push('-i', join(dir, 'subs.srt'));
  filters.push(`${Array.from({ length: count }, (_, i) => `[v${i}]`).join('')}concat=n=${count}:v=1:a=0,format=yuv420p[v]`);
  for (let i = 0; i < count; i++) filters.push(`[${count + 1 + i}:a]adelay=${(i * slideSec + 2) * 1000}:all=1[a${i}]`);
  filters.push(`[${count}:a]${Array.from({ length: count }, (_, i) => `[a${i}]`).join('')}amix=inputs=${count + 1}:duration=first:normalize=0[a]`);
  const out = join(dir, 'bench.mp4');
  await runTool('ffmpeg', [
    '-hide_banner', '-nostdin', '-v', 'error', '-y', ...inputs, '-filter_complex', filters.join(';'),
    '-map', '[v]', '-map', '[a]', ...(asr ? [] : ['-map', `${2 * count + 1}:s`, '-c:s', 'mov_text', '-metadata:s:s:0', 'language=eng']), '-c:v', 'libx264', '-preset', 'veryfast', '-crf', '28', '-g', '250',
    '-c:a', 'aac', '-b:a', '64k', '-movflags', '+faststart', out,
  ]);
  return out;
}
