/**
 * Issue 45, who speaks: turns in every recording with speech, with no model pulled. Conversations of
 * espeak-ng voices (test/support/conversation.ts) indexed by a real server on 127.0.0.1 with real ffmpeg
 * decoding, the shipped Silero VAD and the analysis on its thread; read back from GET …/analysis.
 */
import { execFile } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOAT_TALK, conversation, GEBURTSTAG, srtOf, type PlacedTurn } from '../support/conversation.js';
import { settledTask, startTestServer, type TestServer } from '../support/server.js';

const run = promisify(execFile);

interface Said {
  speakers: { speaker: number; label: string; start: number; end: number }[];
  episodes: { audio: { start: number; end: number; text: string; speaker: number | null }[] }[];
}

/** Whether each placed turn's middle lies in a found turn of the same speaker. */
function matched(found: Said['speakers'], truth: readonly PlacedTurn[]): boolean[] {
  return truth.map((t) => {
    const mid = (t.start + t.end) / 2;
    return found.some((f) => f.speaker === t.speaker && f.start <= mid && mid <= f.end);
  });
}

describe('speaker turns', () => {
  let s: TestServer;
  let boat: PlacedTurn[];
  let geburtstag: PlacedTurn[];

  const indexed = async (file: string, media_id: string, headers: Record<string, string> = {}): Promise<Said> => {
    const r = await s.call('POST', '/index', { json: { collection: 'talks', video: { path: join(s.mediaDir, file), media_id } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const task = await settledTask(s, r.body.task_id as string, 120_000);
    expect(task.status, JSON.stringify(task.error)).toBe('completed');
    return (await s.call('GET', `/collections/talks/items/${media_id}/analysis`, { headers })).body as Said;
  };

  beforeAll(async () => {
    s = await startTestServer();
    expect((await s.call('POST', '/collections', { json: { collection_id: 'talks', name: 'Talks' } })).status).toBe(201);
    const two = [{ voice: 'en+m3', pitch: 35 }, { voice: 'en+f2', pitch: 70 }];
    boat = await conversation(join(s.mediaDir, 'boat.m4a'), two, BOAT_TALK);
    await conversation(join(s.mediaDir, 'alone.m4a'), two, BOAT_TALK.map((t) => ({ ...t, speaker: 1 })));
    // A video of a German talk with its words as a sidecar: the lines come from the SRT, the voices from the sound.
    geburtstag = await conversation(join(s.mediaDir, 'geburtstag.wav'), [{ voice: 'de+m1', pitch: 40 }, { voice: 'de+f3', pitch: 75 }], GEBURTSTAG);
    const seconds = geburtstag.at(-1)!.end + 0.5;
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `testsrc2=s=320x240:r=10:d=${seconds}`, '-i', join(s.mediaDir, 'geburtstag.wav'), '-c:v', 'libx264', '-preset', 'ultrafast', '-c:a', 'aac', '-shortest', join(s.mediaDir, 'geburtstag.mp4')]);
    await writeFile(join(s.mediaDir, 'geburtstag.srt'), srtOf(geburtstag));
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'sine=f=440:d=8', '-c:a', 'aac', join(s.mediaDir, 'tone.m4a')]);
    // The same talk over a telephone line (8 kHz, mono, µ-law) and spread over 8 channels.
    await run('ffmpeg', ['-v', 'error', '-y', '-i', join(s.mediaDir, 'boat.m4a'), '-ar', '8000', '-ac', '1', '-c:a', 'pcm_mulaw', join(s.mediaDir, 'phone.wav')]);
    await run('ffmpeg', ['-v', 'error', '-y', '-i', join(s.mediaDir, 'boat.m4a'), '-af', 'pan=7.1|c0=c0|c1=c0|c2=c0|c3=c0|c4=c0|c5=c0|c6=c0|c7=c0', '-c:a', 'flac', join(s.mediaDir, 'eight.flac')]);
    // Music: a melody of chords, notes changing every half second, no voice.
    const notes = [262, 330, 392, 349, 294, 440, 392, 330].map((f, i) => `between(t,${i * 0.5},${i * 0.5 + 0.5})*(sin(2*PI*${f}*t)+0.5*sin(2*PI*${f * 1.5}*t)+0.3*sin(2*PI*${f * 2}*t))`).join('+');
    // Commas inside a filter's arguments are escaped for the filter graph.
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', `aevalsrc=0.2*(${notes.replace(/,/g, '\\,')}):s=44100:d=4`, '-af', 'aloop=loop=4:size=176400', '-c:a', 'aac', join(s.mediaDir, 'music.m4a')]);
  }, 120_000);
  afterAll(async () => {
    await s?.close();
  });

  it('finds two voices taking turns in a voice memo, labelled in the reader’s language', async () => {
    const said = await indexed('boat.m4a', 'boat');
    expect(new Set(said.speakers.map((t) => t.speaker))).toEqual(new Set([1, 2]));
    expect(matched(said.speakers, boat)).toEqual([true, true, true, true]);
    expect(said.speakers[0]!.label).toBe('Speaker 1');
    const german = (await s.call('GET', '/collections/talks/items/boat/analysis', { headers: { 'accept-language': 'de' } })).body as Said;
    expect(german.speakers.map((t) => t.label)).toContain('Sprecher 2');
  });

  it('gives each subtitle line the speaker whose turn covers it, in a German video', async () => {
    const said = await indexed('geburtstag.mp4', 'geburtstag');
    const lines = said.episodes.flatMap((e) => e.audio).sort((a, b) => a.start - b.start);
    expect(lines.map((l) => l.text)).toEqual(GEBURTSTAG.map((t) => t.text));
    expect(lines.map((l) => l.speaker)).toEqual([1, 2, 1, 2]);
  });

  it('hears one speaker where one voice speaks, and none in a recording without speech', async () => {
    const alone = await indexed('alone.m4a', 'alone');
    expect(new Set(alone.speakers.map((t) => t.speaker))).toEqual(new Set([1]));
    const tone = await indexed('tone.m4a', 'tone');
    expect(tone.speakers).toEqual([]);
  });

  it('completes on telephone audio, on 8 channels and on music, with no speaker made up in the music', async () => {
    const phone = await indexed('phone.wav', 'phone');
    expect(new Set(phone.speakers.map((t) => t.speaker)).size).toBeGreaterThanOrEqual(1);
    const eight = await indexed('eight.flac', 'eight');
    expect(new Set(eight.speakers.map((t) => t.speaker))).toEqual(new Set([1, 2]));
    expect(matched(eight.speakers, boat).filter(Boolean).length).toBeGreaterThanOrEqual(3);
    const music = await indexed('music.m4a', 'music');
    expect(new Set(music.speakers.map((t) => t.speaker)).size).toBeLessThanOrEqual(1);
  });
});
