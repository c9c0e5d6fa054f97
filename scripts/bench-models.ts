/**
 * Model speed on this machine: OCR latency per frame, VAD throughput, Whisper / CLIP / e5 per part (on the
 * real-shaped stand-ins, see bench-models.standins.ts), memory.
 * Run: `npx tsx scripts/bench-models.ts [--only ocr,vad,whisper,whisper-tiny,clip,e5]`. The last line printed is one JSON object.
 *
 * Sections are objects in SECTIONS below. Whisper and the embedders (owned elsewhere) are added by
 * writing a `BenchSection` (for instance in its own file) and listing it there; nothing else changes.
 */
import { cpus, loadavg } from 'node:os';
import { pathToFileURL } from 'node:url';
import { createOcr } from '../src/ml/ocr/index.js';
import { detectSpeech } from '../src/ml/vad/index.js';
import { assemble, renderFrame, scratchDir, speech, type FrameSpec } from '../test/ml/fixtures.js';
import { clipSection, e5Section, whisperSection, whisperTinySection } from './bench-models.standins.js';
import { median } from './bench-stats.js';

/**
 * What a section gets: a scratch directory for generated media, removed after the run.
 * @example
 * async run({ dir, log }: BenchContext) { log(`writing to ${dir}`); return {}; }
 */
export interface BenchContext {
  dir: string;
  log(message: string): void;
}

/**
 * One measured capability; its result object lands under `name` in the final JSON.
 * @example
 * const whisper: BenchSection = { name: 'whisper', run: async () => ({ audio_s_per_compute_s: 4.2 }) };
 */
export interface BenchSection {
  name: string;
  run(ctx: BenchContext): Promise<Record<string, unknown>>;
}

const round = (v: number, digits = 1) => Math.round(v * 10 ** digits) / 10 ** digits;
const rssMb = () => round(process.memoryUsage().rss / 2 ** 20);

/** Slide-like frames: a title, sometimes body lines, on a few colours. */
function slides(width: number, height: number): FrameSpec[] {
  const k = width / 1280;
  const title = (text: string) => ({ text, size: Math.round(64 * k), y: Math.round(80 * k) });
  const body = (text: string, row: number) => ({ text, size: Math.round(40 * k), x: Math.round(100 * k), y: Math.round((250 + row * 70) * k) });
  return [
    { width, height, background: 'blue', lines: [title('Quarterly Results 2024')] },
    { width, height, background: 'white', lines: [{ ...title('Hello World from vidx'), color: 'black' }] },
    { width, height, background: '0x202020', lines: [title('Agenda'), body('Revenue grew by 15 percent', 0), body('Costs stayed flat', 1), body('Next steps for Q3', 2)] },
    { width, height, background: 'darkgreen', lines: [title('The Quick Brown Fox'), body('Jumps over the lazy dog', 0)] },
    { width, height, background: '0xaa0000', lines: [title('Welcome to the Keynote'), body('Speaker: Jane Doe', 0), body('Room 101, 10:30', 1)] },
    { width, height, background: 'navy', lines: [body('subtitles look like this one', 4)] },
  ];
}

const ocrSection: BenchSection = {
  name: 'ocr',
  async run({ dir, log }) {
    const ocr = createOcr();
    const result: Record<string, unknown> = {};
    try {
      const sizes: Array<[number, number]> = [[1280, 720], [640, 360]];
      const frames = new Map<string, Array<{ frame: Awaited<ReturnType<typeof renderFrame>>; want: string }>>();
      for (const [w, h] of sizes) {
        const specs = slides(w, h);
        const rendered = await Promise.all(specs.map((s) => renderFrame(dir, s)));
        frames.set(`${w}x${h}`, rendered.map((frame, i) => ({ frame, want: specs[i].lines.map((l) => l.text).join('\n') })));
      }
      // The first call loads the three sessions; it is reported apart from the steady state.
      let t = performance.now();
      await ocr.recognize(frames.get('1280x720')![0].frame);
      result.first_call_ms = round(performance.now() - t);
      for (const [key, list] of frames) {
        const times: number[] = [];
        let lines = 0;
        let exact = 0;
        for (let pass = 0; pass < 2; pass++) {
          for (const { frame, want } of list) {
            t = performance.now();
            const got = await ocr.recognize(frame);
            times.push(performance.now() - t);
            lines += got.length;
            const text = got.map((l) => l.text).join('\n');
            if (pass === 0 && text === want) exact++;
            else if (pass === 0) log(`ocr ${key} misread: ${JSON.stringify(want)} -> ${JSON.stringify(text)}`);
          }
        }
        result[`median_ms_${key}`] = round(median(times));
        result[`max_ms_${key}`] = round(Math.max(...times));
        result[`lines_per_frame_${key}`] = round(lines / times.length, 2);
        // Frames whose every line was read exactly and in order: a guard against speed bought with accuracy.
        result[`exact_frames_${key}`] = `${exact}/${list.length}`;
        log(`ocr ${key}: median ${round(median(times))} ms over ${times.length} frames`);
      }
      result.rss_mb = rssMb();
    } finally {
      await ocr.close();
    }
    return result;
  },
};

const vadSection: BenchSection = {
  name: 'vad',
  async run({ dir, log }) {
    const clips = await Promise.all(
      [
        'The quarterly results were better than expected this year.',
        'Please remember to index the new video collection tomorrow.',
        'Voice activity detection finds the parts of a recording where someone speaks.',
      ].map((text) => speech(dir, text)),
    );
    // About five minutes: clips separated by 1-3 s of silence, in a fixed pattern.
    const parts: Array<number | Float32Array> = [1];
    let seconds = 1;
    for (let i = 0; seconds < 300; i++) {
      const clip = clips[i % clips.length];
      const gap = 1 + (i % 3);
      parts.push(clip, gap);
      seconds += clip.length / 16000 + gap;
    }
    const { track, offsets } = assemble(parts);
    const audioS = track.length / 16000;
    // Fed as 1 s chunks, the way a decoder would stream it.
    const chunks = function* () {
      for (let at = 0; at < track.length; at += 16000) yield track.subarray(at, at + 16000);
    };
    await detectSpeech([track.subarray(0, 16000)]); // session load, not measured
    const t = performance.now();
    const segments = await detectSpeech(chunks());
    const computeS = (performance.now() - t) / 1000;
    log(`vad: ${round(audioS)} s of audio in ${round(computeS, 2)} s, ${segments.length} segments for ${offsets.length} utterances`);
    return {
      audio_s: round(audioS),
      compute_s: round(computeS, 3),
      audio_s_per_compute_s: round(audioS / computeS),
      segments: segments.length,
      utterances: offsets.length,
      rss_mb: rssMb(),
    };
  },
};

/**
 * Every section, in order: the hook for Whisper and embedder measurements. `--only` selects by name.
 * @example
 * // import { whisperSection } from './bench-whisper-section.js';
 * export const SECTIONS: BenchSection[] = [ocrSection, vadSection, whisperSection];
 */
export const SECTIONS: BenchSection[] = [ocrSection, vadSection, whisperSection, whisperTinySection, clipSection, e5Section];

async function main(): Promise<void> {
  const onlyArg = process.argv.indexOf('--only');
  const only = onlyArg >= 0 ? new Set(process.argv[onlyArg + 1]?.split(',')) : null;
  const dir = await scratchDir();
  const report: Record<string, unknown> = { cpus: cpus().length, node: process.version };
  try {
    for (const section of SECTIONS) {
      if (only && !only.has(section.name)) continue;
      report[section.name] = await section.run({ dir: dir.path, log: (m) => console.log(m) });
    }
  } finally {
    await dir.dispose();
  }
  report.rss_mb = rssMb();
  // Other work on a shared 2-core machine inflates every latency above; this says how much there was.
  report.load_avg_1m = round(loadavg()[0], 2);
  // ru_maxrss is in kilobytes on Linux.
  report.peak_rss_mb = round(process.resourceUsage().maxRSS / 1024);
  console.log(JSON.stringify(report));
}

// Only when run directly, so a section file may import the types above without starting a run.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
