import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';
import { startFakeHub, type FakeHub } from '../support/fake-hub.js';

interface Check {
  name: string;
  status: 'ok' | 'warn' | 'fail' | 'info';
  detail: string;
  fix?: string;
}

describe('vidx doctor and vidx keys (no server needed)', () => {
  let tmp: string;
  let hub: FakeHub;
  beforeAll(async () => {
    tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'cli-local-'));
    mkdirSync(join(tmp, 'empty-hub'));
    hub = await startFakeHub({ root: join(tmp, 'empty-hub') });
  });
  afterAll(async () => {
    await hub.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  async function doctor(env: Record<string, string>) {
    const r = await runCli(['doctor', '--json', '--url', 'http://127.0.0.1:9'], { VIDX_HUB_URL: hub.url, ...env });
    const report = JSON.parse(r.stdout) as { ok: boolean; checks: Check[] };
    return { code: r.code, report, byName: Object.fromEntries(report.checks.map((c) => [c.name, c])) as Record<string, Check> };
  }

  it('passes on a sound setup: tools, native parts, shipped models; pulled models are warnings with the pull command', async () => {
    const { code, report, byName } = await doctor({ VIDX_DATA_DIR: join(tmp, 'fresh') });
    expect(code, JSON.stringify(report.checks, null, 1)).toBe(0);
    expect(report.ok).toBe(true);
    for (const name of ['ffmpeg', 'ffprobe', 'sqlite', 'onnxruntime', 'sharp', 'ocr', 'vad', 'face_detection', 'data dir']) expect(byName[name].status, name).toBe('ok');
    // Tesseract with its German model (scripts/system-deps.sh installs it) gives OCR its ä ö ü ß.
    expect(byName.ocr_german).toMatchObject({ status: 'ok', detail: expect.stringMatching(/German letters.*Tesseract deu/) });
    // A small CI disk may only warn.
    expect(byName['data dir space'].status).not.toBe('fail');
    expect(byName['data dir'].detail).toMatch(/created at first start/);
    expect(byName.asr.status).toBe('warn');
    expect(byName.asr.fix).toMatch(/^vidx models pull [\w.-]+$/);
    expect(byName.server).toMatchObject({ status: 'info', detail: expect.stringMatching(/nothing answers at http:\/\/127\.0\.0\.1:9/) });
    // It looks, never fetches.
    expect(hub.requests).toEqual([]);
  });

  it('fails on a missing ffmpeg and on loose permissions, with the fix for each', async () => {
    const data = join(tmp, 'loose');
    mkdirSync(data);
    chmodSync(data, 0o755);
    writeFileSync(join(data, 'admin.key'), 'vidx_x', { mode: 0o644 });
    chmodSync(join(data, 'admin.key'), 0o644);
    const { code, report, byName } = await doctor({ VIDX_DATA_DIR: data, FFMPEG_PATH: join(tmp, 'no-ffmpeg') });
    expect(code).toBe(1);
    expect(report.ok).toBe(false);
    // A setting that names a file that is not there fails by its own name; the other checks still run.
    expect(byName.FFMPEG_PATH).toMatchObject({ status: 'fail', detail: `FFMPEG_PATH names a file or folder that does not exist, got "${join(tmp, 'no-ffmpeg')}"` });
    expect(byName.FFMPEG_PATH.fix).toMatch(/unset it \(default ffmpeg-static, then PATH\)/);
    expect(byName['data dir privacy']).toMatchObject({ status: 'fail', fix: `chmod 700 '${data}'` });
    expect(byName['admin.key']).toMatchObject({ status: 'fail', fix: `chmod 600 '${join(data, 'admin.key')}'` });
    const text = await runCli(['doctor', '--url', 'http://127.0.0.1:9'], { VIDX_DATA_DIR: data, FFMPEG_PATH: join(tmp, 'no-ffmpeg') });
    expect(text.stdout).toMatch(/^FAIL {2}FFMPEG_PATH .*\n\s+fix: correct it or unset it/m);
    expect(text.stdout).toMatch(/problem\(s\) to fix/);
  });

  it('warns, with the install command, when Tesseract has no German model', async () => {
    // A stand-in tesseract that knows only English.
    const fake = join(tmp, 'tesseract');
    writeFileSync(fake, '#!/bin/sh\ncase "$1" in --version) echo "tesseract 5.0.0";; --list-langs) printf "List of available languages (1):\\neng\\n";; esac\n', { mode: 0o755 });
    const { code, byName } = await doctor({ VIDX_DATA_DIR: join(tmp, 'fresh'), TESSERACT_PATH: fake });
    expect(code).toBe(0);
    expect(byName.ocr_german).toMatchObject({ status: 'warn', fix: 'apt-get install tesseract-ocr tesseract-ocr-deu' });
    expect(byName.ocr_german.detail).toMatch(/has no German model \(deu\)/);
  });

  it('creates, lists and revokes keys on the data dir', async () => {
    const dir = join(tmp, 'keys');
    const created = await runCli(['keys', 'create', '--name', 'laptop', '--json', '--data-dir', dir]);
    expect(created.code, created.stderr).toBe(0);
    const key = JSON.parse(created.stdout);
    expect(key).toMatchObject({ name: 'laptop', role: 'user', key: expect.stringMatching(/^vidx_/) });
    const list = await runCli(['keys', 'list', '--data-dir', dir]);
    expect(list.stdout).toMatch(new RegExp(`^${key.id}\\tuser\\tlaptop\\t`, 'm'));
    const revoked = await runCli(['keys', 'revoke', key.id, '--data-dir', dir]);
    expect(revoked.stdout).toBe(`revoked ${key.id} (laptop)\n`);
    const bad = await runCli(['keys', 'create', '--nmae', 'x', '--data-dir', dir]);
    expect(bad.code).toBe(2);
  });
});
