import { describe, expect, it } from 'vitest';
import { EXTRA_PER_MINUTE, EXTRA_PER_SHOT, extraFaceTimes } from '../../src/analysis/face-sampling.js';
import { keyframeTimes } from '../../src/analysis/shots.js';

describe('looking again inside shots with faces', () => {
  it('asks for the midpoints around the keyframes of a shot with a face, and nothing in shots without one', () => {
    // Shots 0..9 (a face at 1 s) and 9..20 (no face).
    const keyframes = [{ time: 1, faces: 1 }, { time: 5, faces: 0 }, { time: 10, faces: 0 }, { time: 14, faces: 0 }, { time: 18, faces: 0 }];
    // Midpoints 0.5, 3 and 7; two per shot at most, spread: the first and the last.
    expect(extraFaceTimes(keyframes, [9], 20)).toEqual([0.5, 7]);
  });

  it('keeps to the bounds per shot and per minute of video, spread over the shots', () => {
    // Ten minutes, a cut every 30 s, a face on every keyframe: far more midpoints than allowed.
    const duration = 600;
    const cuts = Array.from({ length: 19 }, (_, i) => (i + 1) * 30);
    const keyframes = keyframeTimes(duration, cuts).map((time) => ({ time, faces: 2 }));
    const times = extraFaceTimes(keyframes, cuts, duration);
    expect(times).toHaveLength(10 * EXTRA_PER_MINUTE);
    for (let shot = 0; shot < 20; shot++) {
      const inShot = times.filter((t) => t >= shot * 30 && t < (shot + 1) * 30);
      expect(inShot.length).toBeLessThanOrEqual(EXTRA_PER_SHOT);
      expect(inShot.length).toBeGreaterThan(0);
    }
    expect([...times].sort((a, b) => a - b)).toEqual(times);
    expect(times.some((t) => keyframes.some((k) => Math.abs(k.time - t) < 0.5))).toBe(false);
  });

  it('asks for nothing when no keyframe showed a face', () => {
    expect(extraFaceTimes([{ time: 1, faces: 0 }, { time: 5, faces: 0 }], [], 9)).toEqual([]);
  });
});
