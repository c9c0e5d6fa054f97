import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runTool, spawnTool, ToolError } from '../../src/media/run.js';

describe('spawnTool / runTool', () => {
  it('kills the child on abort and rejects with the abort reason', async () => {
    const ac = new AbortController();
    // Endless silent audio into the null muxer: only a kill ends it.
    const p = spawnTool('ffmpeg', ['-v', 'error', '-re', '-f', 'lavfi', '-i', 'anullsrc', '-f', 'null', '-'], { signal: ac.signal });
    setTimeout(() => ac.abort(new Error('enough')), 150);
    await expect(p.done).rejects.toThrow('enough');
  });

  it('refuses to start when already aborted', () => {
    expect(() => spawnTool('ffmpeg', ['-version'], { signal: AbortSignal.abort(new Error('early')) })).toThrow('early');
  });

  it('turns a failure into a ToolError carrying the last stderr lines, keeping stderr bounded', async () => {
    const text = join(mkdtempSync(join(tmpdir(), 'vidx-run-')), 'notes.txt');
    writeFileSync(text, 'not a video\n'.repeat(50));
    const err = await runTool('ffprobe', ['-v', 'error', '-i', `file:${text}`], { stderrLimit: 200 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect((err as ToolError).message).toMatch(/^ffprobe failed \(exit code 1\): .*Invalid data/);
    const gone = await runTool('ffprobe', ['-v', 'error', '-i', 'file:/nonexistent/clip.mp4']).catch((e: unknown) => e);
    expect((gone as ToolError).message).toMatch(/^ffprobe could not open its input: ENOENT/);
    expect((err as ToolError).stderr.length).toBeLessThanOrEqual(200);
    const missing = await runTool({ path: '/nonexistent/tool' }, []).catch((e: unknown) => e);
    expect((missing as ToolError).message).toMatch(/could not be started: .*ENOENT/);
  });

  it('returns stdout and delivers stderr line by line', async () => {
    const lines: string[] = [];
    const { stdout } = await runTool('ffmpeg', ['-hide_banner', '-v', 'info', '-f', 'lavfi', '-i', 'color=s=16x16:d=0.2', '-vf', 'showinfo', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1'], {
      onStderrLine: (l) => lines.push(l),
    });
    expect(stdout.length).toBe(16 * 16 * 5);
    expect(lines.filter((l) => l.includes('Parsed_showinfo'))).not.toHaveLength(0);
  });
});
