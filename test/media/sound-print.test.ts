/**
 * Issue 42: sound prints. The same speech re-encoded (MP3 at 48 kbit/s, quieter, resampled) and trimmed at an
 * offset keeps its print; other speech does not; a file without sound has none.
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compareSound, SOUND_FRAME_BYTES, soundPrint, type SoundPrint } from '../../src/media/sound-print.js';

const run = promisify(execFile);
const bytes = (p: SoundPrint | null) => ({ fps: p!.fps, frames: Buffer.from(p!.frames, 'hex') });

describe('sound prints', () => {
  const dir = mkdtempSync(join(tmpdir(), 'vidx-sound-print-'));
  const at = (name: string) => join(dir, name);
  const ffmpeg = (...args: string[]) => run('ffmpeg', ['-v', 'error', '-y', ...args]);
  beforeAll(async () => {
    await run('espeak-ng', ['-v', 'en', '-w', at('budget.wav'), 'The budget review shows that spending on solar panels went up by twelve percent this quarter.']);
    await run('espeak-ng', ['-v', 'en', '-w', at('garden.wav'), 'Our garden has tomatoes, beans and a small apple tree that my grandmother planted.']);
    await Promise.all([
      ffmpeg('-i', at('budget.wav'), '-c:a', 'aac', '-b:a', '128k', at('budget.m4a')),
      ffmpeg('-i', at('budget.wav'), '-af', 'volume=0.3', '-ar', '44100', '-c:a', 'libmp3lame', '-b:a', '48k', at('budget-quiet.mp3')),
      ffmpeg('-ss', '2.3', '-i', at('budget.wav'), '-c:a', 'aac', at('budget-trim.m4a')),
      ffmpeg('-f', 'lavfi', '-i', 'testsrc2=s=160x90:r=10', '-t', '2', '-c:v', 'libx264', '-preset', 'ultrafast', at('silent.mp4')),
    ]);
  }, 60_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps the print of the same speech re-encoded, quieter and trimmed, and tells other speech apart', async () => {
    const [budget, quiet, trim, garden] = await Promise.all(['budget.m4a', 'budget-quiet.mp3', 'budget-trim.m4a', 'garden.wav'].map((f) => soundPrint(at(f))));
    expect(budget!.fps).toBe(10);
    // About ten frames a second of the ~5 s of speech.
    expect(budget!.frames.length / 2 / SOUND_FRAME_BYTES).toBeGreaterThan(40);
    const same = compareSound(bytes(budget), bytes(quiet), 0);
    expect(same.change!).toBeLessThan(0.1);
    // The trim's second 0 is the original's 2.3.
    expect(compareSound(bytes(trim), bytes(budget), 2.3).change!).toBeLessThan(0.2);
    expect(compareSound(bytes(trim), bytes(budget), 0).change!).toBeGreaterThan(0.3);
    const other = compareSound(bytes(budget), bytes(garden), 0);
    expect(other.change!).toBeGreaterThan(0.3);
    expect(other.shape!).toBeGreaterThan(0.28);
  });

  it('has no print for a file without sound', async () => {
    expect(await soundPrint(at('silent.mp4'))).toBeNull();
  });
});
