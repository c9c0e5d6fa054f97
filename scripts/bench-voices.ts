/**
 * Benchmark of speaker turns (issue 45) with no model: synthetic conversations of espeak-ng voices (English
 * and German, 2 to 4 speakers, turns of 1–10 s, pauses and short interruptions), each decoded, its speech found
 * by the shipped Silero VAD and its turns made as the speakers step makes them; the diarization error rate
 * (missed speech, false alarm and confusion over time, a 0.25 s collar around each true boundary, the best
 * mapping of found speakers to true ones). With `--minutes N` also the whole analysis of an N-minute
 * conversation, timed, and the speakers step's own share of it. With `--hours H` also an H-hour recording (a
 * talk looped) through the speakers step's path: its time and the process's peak memory against before it.
 * With `--across N` (default 5) also voices across recordings: each of 4 voices per language speaks in N
 * two-voice recordings (and, apart, two clearly different voices in N recordings); every speaker's voiceprint is grouped into people as items are stored
 * (services/people/voice-grouping.ts); the share of each voice's speech that lands in its one person, and
 * how many people hold two voices (must be none).
 *
 *   npx tsx scripts/bench-voices.ts [--minutes 10] [--hours 3] [--across 5] [--same D (the grouping distance to try)]
 *
 * The last line printed is one JSON object.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { MAX_EDGE_WINDOWS, speakerTurns, voicePrints, windowSeconds, type SpeakerTurn, type VoicePrint } from '../src/analysis/speakers.js';
import { joinVoices, type VoicePerson } from '../src/services/people/voice-grouping.js';
import { decodeAudio } from '../src/media/audio.js';
import { voiceWindows } from '../src/media/voice-features.js';
import { detectSpeech } from '../src/ml/vad/index.js';
import { conversation, type PlacedTurn, type Turn, type Voice } from '../test/support/conversation.js';

const { values } = parseArgs({ options: { minutes: { type: 'string', default: '0' }, hours: { type: 'string', default: '0' }, across: { type: 'string', default: '5' }, same: { type: 'string' } } });
const round = (n: number, d = 3) => Math.round(n * 10 ** d) / 10 ** d;

const SENTENCES = {
  en: ['Yes.', 'I think we should leave early tomorrow morning.', 'Did you see the weather report for the weekend?', 'No, not yet.', 'The ferry leaves at nine, so we have to be at the harbour by half past eight at the latest, and we still need tickets.', 'Fine with me.', 'Can you bring the camera and the spare batteries?', 'Of course, and I will pack some sandwiches for everyone.'],
  de: ['Ja.', 'Ich glaube, wir sollten morgen früh losfahren.', 'Hast du den Wetterbericht für das Wochenende gesehen?', 'Nein, noch nicht.', 'Die Fähre fährt um neun, also müssen wir spätestens um halb neun am Hafen sein, und wir brauchen noch Fahrkarten.', 'Mir recht.', 'Kannst du die Kamera und die Ersatzakkus mitbringen?', 'Natürlich, und ich packe für alle Brote ein.'],
};
const VOICES: Record<'en' | 'de', Voice[]> = {
  en: [{ voice: 'en+m3', pitch: 35 }, { voice: 'en+f2', pitch: 70 }, { voice: 'en+m7', pitch: 55 }, { voice: 'en+f4', pitch: 90 }],
  de: [{ voice: 'de+m1', pitch: 40 }, { voice: 'de+f3', pitch: 75 }, { voice: 'de+m4', pitch: 60 }, { voice: 'de+f1', pitch: 95 }],
};

/** A conversation's turns: speakers in a shuffled but repeatable order, sentences of every length. */
function script(lang: 'en' | 'de', speakers: number, turns: number, seed: number): Turn[] {
  let x = seed;
  const next = () => {
    x = (x * 1103515245 + 12345) % 2 ** 31;
    return x / 2 ** 31;
  };
  const out: Turn[] = [];
  for (let i = 0; i < turns; i++) {
    let speaker = 1 + Math.floor(next() * speakers);
    if (out.at(-1)?.speaker === speaker) speaker = (speaker % speakers) + 1;
    out.push({ speaker, text: SENTENCES[lang][Math.floor(next() * SENTENCES[lang].length)]! });
  }
  return out;
}

/** Diarization error rate over 10 ms frames, with a collar around true boundaries and the best speaker mapping. */
function der(truth: readonly PlacedTurn[], found: readonly SpeakerTurn[], collar = 0.25): { der: number; missed: number; falseAlarm: number; confusion: number } {
  const step = 0.01;
  const end = Math.max(...truth.map((t) => t.end), ...found.map((t) => t.end), 0);
  const at = (list: readonly { start: number; end: number; speaker: number }[], t: number) => list.find((x) => x.start <= t && t < x.end)?.speaker ?? 0;
  const near = (t: number) => truth.some((x) => Math.abs(x.start - t) < collar || Math.abs(x.end - t) < collar);
  const frames: [number, number][] = [];
  for (let t = 0; t < end; t += step) if (!near(t)) frames.push([at(truth, t), at(found, t)]);
  const hyp = [...new Set(found.map((f) => f.speaker))];
  const ref = [...new Set(truth.map((f) => f.speaker))];
  let best = { der: Infinity, missed: 0, falseAlarm: 0, confusion: 0 };
  for (const mapping of mappings(hyp, ref)) {
    let speech = 0, missed = 0, falseAlarm = 0, confusion = 0;
    for (const [r, h] of frames) {
      if (r) speech++;
      if (r && !h) missed++;
      else if (!r && h) falseAlarm++;
      else if (r && h && mapping.get(h) !== r) confusion++;
    }
    const e = (missed + falseAlarm + confusion) / Math.max(1, speech);
    if (e < best.der) best = { der: e, missed: missed / speech, falseAlarm: falseAlarm / speech, confusion: confusion / speech };
  }
  return best;
}

/** Every one-to-one mapping of found speakers to true ones (a found speaker left over maps to none). */
function* mappings(hyp: number[], ref: number[]): Generator<Map<number, number>> {
  if (hyp.length === 0) {
    yield new Map();
    return;
  }
  const [h, ...rest] = hyp;
  for (const r of [...ref, 0]) {
    for (const m of mappings(rest, ref.filter((x) => x !== r))) yield new Map([...m, [h!, r]]);
  }
}

/** The turns the speakers step makes of a file, and how long they took (decode, VAD, features, clusters). */
async function diarize(file: string): Promise<{ turns: SpeakerTurn[]; prints: VoicePrint[]; seconds: number; stepSeconds: number }> {
  const t0 = performance.now();
  const speech = await detectSpeech(decodeAudio(file));
  const t1 = performance.now();
  const total = speech.reduce((s, x) => s + x.end - x.start, 0);
  const signal = new AbortController().signal;
  const [windows, fine] = await voiceWindows(file, speech, { windowSec: [windowSeconds(total, 2), windowSeconds(total, 0.5, MAX_EDGE_WINDOWS)], signal });
  const turns = speakerTurns(windows!, fine);
  const t2 = performance.now();
  return { turns, prints: voicePrints(windows!, turns), seconds: (t2 - t0) / 1000, stepSeconds: (t2 - t1) / 1000 };
}

/** The true voice a found speaker is: the one they overlap most in time. */
function trueVoice(truth: readonly PlacedTurn[], found: readonly SpeakerTurn[], speaker: number): number {
  const overlap = new Map<number, number>();
  for (const f of found.filter((t) => t.speaker === speaker)) {
    for (const t of truth) overlap.set(t.speaker, (overlap.get(t.speaker) ?? 0) + Math.max(0, Math.min(f.end, t.end) - Math.max(f.start, t.start)));
  }
  return [...overlap].sort((a, b) => b[1] - a[1])[0]?.[0] ?? 0;
}

/**
 * Voices across recordings, as a collection with voices on groups them: per language, each of 4 voices in
 * `n` two-voice talks. Returns the share of each voice's speech in its main person, and the people holding
 * the speech of two voices.
 */
async function across(dir: string, n: number): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  // Four voices (two of them a pitch step apart, of one kind), and the first two alone (a man and a woman).
  for (const [name, lang, pairs, recordings] of [
    ['en', 'en', [[0, 1], [2, 3], [0, 2], [1, 3], [0, 3], [1, 2]], n * 2],
    ['de', 'de', [[0, 1], [2, 3], [0, 2], [1, 3], [0, 3], [1, 2]], n * 2],
    ['en-two', 'en', [[0, 1], [1, 0]], n],
    ['de-two', 'de', [[0, 1], [1, 0]], n],
  ] as const) {
    const people: VoicePerson[] = [];
    let next = 1;
    // seconds of speech of [voice][person key]
    const heard = new Map<number, Map<number, number>>();
    for (let k = 0; k < recordings; k++) {
      const pair = pairs[k % pairs.length]!;
      const file = join(dir, `across-${name}-${k}.m4a`);
      const placed = await conversation(file, pair.map((v) => VOICES[lang][v]!), script(lang, 2, 8, 31 + k), 0.5);
      const { turns, prints } = await diarize(file);
      const joined = joinVoices(people, prints, () => next++, values.same === undefined ? undefined : Number(values.same));
      prints.forEach((p, i) => {
        const voice = pair[trueVoice(placed, turns, p.speaker) - 1] ?? -1;
        const m = heard.get(voice) ?? new Map<number, number>();
        m.set(joined[i]!.key, (m.get(joined[i]!.key) ?? 0) + p.seconds);
        heard.set(voice, m);
      });
    }
    const main = new Map([...heard].map(([voice, m]) => [voice, [...m].sort((a, b) => b[1] - a[1])[0]![0]]));
    const share = [...heard].map(([voice, m]) => [...m.values()].reduce((a, b) => a + b, 0) && m.get(main.get(voice)!)! / [...m.values()].reduce((a, b) => a + b, 0));
    const owners = new Map<number, Set<number>>();
    for (const [voice, m] of heard) for (const key of m.keys()) owners.set(key, (owners.get(key) ?? new Set()).add(voice));
    out[name] = { recordings, voices: heard.size, people: people.length, in_main_person: share.map((x) => round(x)), people_with_two_voices: [...owners.values()].filter((v) => v.size > 1).length };
    console.log(JSON.stringify({ across: name, ...(out[name] as object) }));
  }
  return out;
}

const dir = mkdtempSync(join(tmpdir(), 'vidx-bench-voices-'));
try {
  const cases: { name: string; lang: 'en' | 'de'; speakers: number; turns: number }[] = [
    { name: 'en-2', lang: 'en', speakers: 2, turns: 12 },
    { name: 'de-2', lang: 'de', speakers: 2, turns: 12 },
    { name: 'en-3', lang: 'en', speakers: 3, turns: 15 },
    { name: 'de-3', lang: 'de', speakers: 3, turns: 15 },
    { name: 'en-4', lang: 'en', speakers: 4, turns: 20 },
    { name: 'de-4', lang: 'de', speakers: 4, turns: 20 },
  ];
  const results: Record<string, unknown>[] = [];
  let errors = 0, speech = 0;
  for (const [i, c] of cases.entries()) {
    const file = join(dir, `${c.name}.m4a`);
    // Pauses from 0.3 s, and every fifth turn a short interruption (a one-word answer).
    const placed = await conversation(file, VOICES[c.lang].slice(0, c.speakers), script(c.lang, c.speakers, c.turns, 7 + i), 0.3 + (i % 3) * 0.3);
    const { turns, seconds } = await diarize(file);
    const e = der(placed, turns);
    const talk = placed.reduce((s, t) => s + t.end - t.start, 0);
    errors += e.der * talk;
    speech += talk;
    results.push({ case: c.name, speakers: c.speakers, found: new Set(turns.map((t) => t.speaker)).size, der: round(e.der), missed: round(e.missed), false_alarm: round(e.falseAlarm), confusion: round(e.confusion), speech_s: round(talk, 1), seconds: round(seconds, 2) });
    console.log(JSON.stringify(results.at(-1)));
  }
  let long: Record<string, unknown> | null = null;
  const minutes = Number(values.minutes);
  if (minutes > 0) {
    const file = join(dir, 'long.m4a');
    const turns = Math.round((minutes * 60) / 4.5);
    await conversation(file, VOICES.en.slice(0, 3), script('en', 3, turns, 99), 0.5);
    const { ModelRuntime } = await import('../src/ml/runtime.js');
    const { analyzeFile } = await import('../src/analysis/pipeline.js');
    const models = new ModelRuntime({ modelsDir: join(dir, 'models') });
    const t0 = performance.now();
    const analysis = await analyzeFile({ file, sourcePath: file, title: null, metadata: null, language: 'en', thumbnailDir: join(dir, 'out') }, { models, signal: new AbortController().signal, progress: () => {} });
    const analysed = (performance.now() - t0) / 1000;
    const { stepSeconds } = await diarize(file);
    long = { minutes, analysis_s: round(analysed, 2), speakers_step_s: round(stepSeconds, 2), speakers_found: new Set((analysis.speakers ?? []).map((t) => t.speaker)).size || null };
    console.log(JSON.stringify(long));
  }
  let hours: Record<string, unknown> | null = null;
  if (Number(values.hours) > 0) {
    const talk = join(dir, 'loop.m4a');
    await conversation(talk, VOICES.en.slice(0, 2), script('en', 2, 20, 5), 0.5);
    const file = join(dir, 'hours.m4a');
    const { execFileSync } = await import('node:child_process');
    execFileSync('ffmpeg', ['-v', 'error', '-y', '-stream_loop', '-1', '-i', talk, '-t', String(Number(values.hours) * 3600), '-c', 'copy', file]);
    const before = process.resourceUsage().maxRSS / 1024;
    const { turns, seconds } = await diarize(file);
    hours = { hours: Number(values.hours), seconds: round(seconds, 1), turns: turns.length, speakers: new Set(turns.map((t) => t.speaker)).size, peak_rss_mb_before: Math.round(before), peak_rss_mb_after: Math.round(process.resourceUsage().maxRSS / 1024) };
    console.log(JSON.stringify(hours));
  }
  const grouped = Number(values.across) > 0 ? await across(dir, Number(values.across)) : null;
  console.log(JSON.stringify({
    bench: 'voices', date: new Date().toISOString(), machine: { cpus: cpus().length, model: cpus()[0]?.model ?? 'unknown', load_avg_1m: round(loadavg()[0]!, 2) },
    der: round(errors / Math.max(1, speech)), cases: results, long, hours, across: grouped,
  }));
} finally {
  rmSync(dir, { recursive: true, force: true });
}
