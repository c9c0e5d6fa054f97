/**
 * Issue 43: every step's work is bounded by what a person would record. Summaries grow with the number of
 * lines, not its square; a subtitle track with more cues than the recording can hold is cut, with a warning,
 * never refused; what is stored and what a search returns per hit have caps, whoever made the analysis.
 */
import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boundedAnalysis, TEXT_LIMITS } from '../../src/analysis/limits.js';
import { extractiveSummary, videoSummary } from '../../src/analysis/summarize.js';
import type { MediaAnalysis } from '../../src/analysis/types.js';
import { MOMENT_LINES } from '../../src/services/search/results.js';
import { srt } from '../support/subtitled-media.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

const run = promisify(execFile);
const WORDS = ['budget', 'solar', 'garden', 'apple', 'river', 'station', 'coffee', 'window', 'letter', 'mountain', 'train', 'school'];
const lines = (n: number) => Array.from({ length: n }, (_, i) => `The ${WORDS[i % 12]} and the ${WORDS[(i * 7) % 12]} near line ${i} about the ${WORDS[(i * 5) % 12]}.`);

/** The fastest of three runs, in ms. */
async function fastest(f: () => Promise<unknown>): Promise<number> {
  let best = Infinity;
  for (let k = 0; k < 3; k++) {
    const t0 = performance.now();
    await f();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

describe('summaries grow with the lines, not their square', () => {
  it('takes about 8 times as long for 8 times the lines, where comparing every pair took 64 times', async () => {
    const small = lines(2_000);
    const large = lines(16_000);
    const ratio = (await fastest(() => extractiveSummary(large, 2, null))) / (await fastest(() => extractiveSummary(small, 2, null)));
    const videoRatio = (await fastest(() => videoSummary([large], null))) / (await fastest(() => videoSummary([small], null)));
    // n·log n gives about 10; n² gave 64. The bound leaves room for a busy machine.
    expect(ratio).toBeLessThan(25);
    expect(videoRatio).toBeLessThan(25);
  }, 60_000);
});

describe('what is stored is bounded, whoever made the analysis', () => {
  it('cuts a delivered analysis of 11,500 lines of 20,000 characters in one episode', () => {
    const huge = 'word '.repeat(4_000);
    const audio = Array.from({ length: 11_500 }, (_, i) => ({ start: i * 0.01, end: i * 0.01 + 0.005, text: huge }));
    const a: MediaAnalysis = {
      type: 'video', duration: 120, language: 'en', title: null, transcript: audio, transcriptSource: 'sidecar', screenText: [], visual: [],
      episodes: [{ index: 0, start: 0, end: 120, audio, visual: [], summary: huge, thumbnail: null, thumbnailTime: 1 }],
      summary: huge, warnings: [], passageVectors: null, frameVectors: null,
      subtitleTracks: [{ language: 'de', source: 'sidecar', segments: audio }],
    };
    const b = boundedAnalysis(a);
    expect(b.episodes[0]!.audio).toHaveLength(TEXT_LIMITS.episodeLines);
    expect(Math.max(...b.episodes[0]!.audio.map((l) => l.text.length))).toBeLessThanOrEqual(TEXT_LIMITS.lineChars);
    expect(b.subtitleTracks![0]!.segments).toHaveLength(TEXT_LIMITS.episodeLines);
    expect(b.summary.length).toBeLessThanOrEqual(TEXT_LIMITS.summaryChars);
    // Within the caps, an analysis passes as it is.
    const fine = { ...a, transcript: [], summary: 'Fine.', episodes: [{ ...a.episodes[0]!, audio: audio.slice(0, 3).map((l) => ({ ...l, text: 'Hello.' })), summary: 'Hello.' }], subtitleTracks: [] };
    expect(boundedAnalysis(fine)).toBe(fine);
  });
});

describe('a subtitle track with more cues than its recording holds', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await startTestServer({ queryEmbedder: null });
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'color=c=navy:s=320x180:r=5', '-t', '4', '-c:v', 'libx264', '-preset', 'ultrafast', join(s.mediaDir, 'wordy.mp4')]);
    // 9,000 cues of 2,000 characters over 4 s: a crafted sidecar, as the probe sent.
    const cues = Array.from({ length: 9_000 }, (_, i): [number, number, string] => [i * 0.0004, i * 0.0004 + 0.0003, `${lines(1)[0]!.replace('line 0', `line ${i}`)} ${'filler '.repeat(280)}`]);
    writeFileSync(join(s.mediaDir, 'wordy.srt'), srt(cues));
    await s.call('POST', '/collections', { json: { collection_id: 'c', name: 'C' } });
  }, 60_000);
  afterAll(() => s?.close());

  it('is cut to the cap with a warning, indexed, and searched with a bounded answer per hit', async () => {
    const r = await s.call('POST', '/index', { json: { collection: 'c', video: { path: join(s.mediaDir, 'wordy.mp4'), media_id: 'wordy' } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const task = await settledTask(s, r.body.task_id, 120_000);
    expect(task.status, task.error?.message).toBe('completed');
    const warnings = JSON.stringify(task.result);
    expect(warnings).toContain('wordy.srt has 9000 cues');
    expect(warnings).toContain('the first 500 are kept');
    const found = await s.call('POST', '/search', { json: { collection: 'c', query: 'budget solar' } });
    expect(found.status).toBe(200);
    const hit = found.body.results[0];
    expect(hit.audio.length).toBeLessThanOrEqual(MOMENT_LINES);
    for (const line of hit.audio) expect(line.text.length).toBeLessThanOrEqual(TEXT_LIMITS.lineChars);
  }, 150_000);
});
