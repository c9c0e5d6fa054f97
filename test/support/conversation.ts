/**
 * Conversations of espeak-ng voices for the speaker tests and benchmark: each turn spoken by its voice (a
 * variant and a pitch), the turns one after another with a pause between, written as one audio file, with
 * where each turn lies (the truth a diarization is measured against) and an SRT of the turns' words.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** An espeak-ng voice: a voice with variant (`en+m3`, `de+f2`) and a pitch 0–99. */
export interface Voice {
  voice: string;
  pitch: number;
}

/** One turn: who says what. */
export interface Turn {
  speaker: number;
  text: string;
}

/** Where a turn ended up in the file. */
export interface PlacedTurn extends Turn {
  start: number;
  end: number;
}

/**
 * Speaks `turns` (speaker n by `voices[n - 1]`) with `pause` seconds between them into `out` (any audio or
 * video container ffmpeg writes from its extension), and returns where each turn lies.
 * @example
 * const placed = await conversation('/tmp/talk.m4a', [{ voice: 'en+m3', pitch: 35 }, { voice: 'en+f2', pitch: 70 }], turns);
 */
export async function conversation(out: string, voices: readonly Voice[], turns: readonly Turn[], pause = 0.7): Promise<PlacedTurn[]> {
  const dir = await mkdtemp(join(tmpdir(), 'vidx-talk-'));
  try {
    const list: string[] = [];
    const placed: PlacedTurn[] = [];
    let at = 0;
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'lavfi', '-i', 'anullsrc=r=22050:cl=mono', '-t', String(pause), join(dir, 'pause.wav')]);
    for (const [i, turn] of turns.entries()) {
      const v = voices[turn.speaker - 1]!;
      const wav = join(dir, `${i}.wav`);
      await run('espeak-ng', ['-v', v.voice, '-p', String(v.pitch), '-s', '150', '-w', wav, turn.text]);
      const seconds = Number((await run('ffprobe', ['-v', 'error', '-show_entries', 'format=duration', '-of', 'csv=p=0', wav])).stdout);
      if (i > 0) {
        list.push(`file '${join(dir, 'pause.wav')}'`);
        at += pause;
      }
      list.push(`file '${wav}'`);
      placed.push({ ...turn, start: at, end: at + seconds });
      at += seconds;
    }
    await writeFile(join(dir, 'list.txt'), `${list.join('\n')}\n`);
    await run('ffmpeg', ['-v', 'error', '-y', '-f', 'concat', '-safe', '0', '-i', join(dir, 'list.txt'), '-ar', '22050', '-ac', '1', out]);
    return placed;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/**
 * The turns as SRT cues, one cue per turn.
 * @example
 * await writeFile('/tmp/talk.srt', srtOf(placed));
 */
export function srtOf(turns: readonly PlacedTurn[]): string {
  const t = (s: number) => new Date(Math.round(s * 1000)).toISOString().slice(11, 23).replace('.', ',');
  return turns.map((x, i) => `${i + 1}\n${t(x.start)} --> ${t(x.end)}\n${x.text}\n`).join('\n');
}

/** A two-person English talk about a boat trip. */
export const BOAT_TALK: readonly Turn[] = [
  { speaker: 1, text: 'Good morning. Did you bring the tickets for the boat trip on Saturday?' },
  { speaker: 2, text: 'Yes, I have them here. We leave the harbour at nine and come back in the evening.' },
  { speaker: 1, text: 'Great. Then we should pack the sandwiches tonight and take warm jackets.' },
  { speaker: 2, text: 'Good idea, it gets cold on the water. I will also bring the camera.' },
];

/** A two-person German talk about a birthday. */
export const GEBURTSTAG: readonly Turn[] = [
  { speaker: 1, text: 'Hast du schon ein Geschenk für Omas Geburtstag gekauft?' },
  { speaker: 2, text: 'Noch nicht. Ich dachte an ein Fotoalbum mit Bildern aus dem Urlaub.' },
  { speaker: 1, text: 'Das ist schön. Sie wird im März neunzig, wir feiern im Garten.' },
  { speaker: 2, text: 'Dann backe ich den Apfelkuchen, den sie so gern mag.' },
];
