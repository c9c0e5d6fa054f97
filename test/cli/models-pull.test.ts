import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFixtureModels, type FixtureSet } from '../../scripts/make-fixture-models.js';
import { EXIT } from '../../src/cli/client.js';
import { runModels } from '../../src/cli/models.js';
import { startFakeHub, type FakeHub } from '../support/fake-hub.js';

let tmp: string;
let fixtures: FixtureSet;
let hub: FakeHub;

beforeAll(async () => {
  tmp = mkdtempSync(join(process.cwd(), 'test', '.tmp', 'registry-cli-'));
  fixtures = await makeFixtureModels(join(tmp, 'hub'));
  hub = await startFakeHub({ root: fixtures.hubDir });
});

afterAll(async () => {
  await hub?.close();
  rmSync(tmp, { recursive: true, force: true });
});

function capture() {
  const s = new PassThrough();
  let text = '';
  s.on('data', (d: Buffer) => (text += d.toString()));
  return { stream: s, text: () => text };
}

async function run(args: string[], opts: { modelsDir: string; stdin?: string[] }) {
  const stdout = capture();
  const stderr = capture();
  const code = await runModels(args, {
    modelsDir: opts.modelsDir,
    hubUrl: hub.url,
    manifestPath: fixtures.manifestPath,
    stdin: Readable.from(opts.stdin ?? []),
    stdout: stdout.stream,
    stderr: stderr.stream,
  });
  return { code, stdout: stdout.text(), stderr: stderr.text() };
}

describe('vidx models', () => {
  it('lists every model as missing with its size, then as installed after a pull', async () => {
    const modelsDir = mkdtempSync(join(tmp, 'models-'));
    const before = await run(['list'], { modelsDir });
    expect(before.code).toBe(EXIT.OK);
    const lines = before.stdout.split('\n');
    expect(lines[0]).toMatch(/^ID\s+CAPABILITY\s+STATUS\s+SIZE\s+REPO$/);
    expect(lines[1]).toMatch(/^tiny-whisper \*\s+asr\s+missing\s+\d+(\.\d)? kB\s+vidx-test\/tiny-whisper$/);
    expect(before.stdout).toMatch(/tiny-clip \*\s+image_text\s+missing/);
    expect(before.stdout).toMatch(/tiny-e5 \*\s+text_embedding\s+missing/);
    expect(before.stdout).toContain(`Models dir: ${modelsDir}`);

    const pulled = await run(['pull', 'tiny-e5', '--yes'], { modelsDir });
    expect(pulled.code).toBe(EXIT.OK);
    expect(pulled.stdout).toMatch(/tiny-e5\s+text_embedding\s+missing/);
    expect(pulled.stdout).toMatch(/Download: [\d.]+ kB; disk needed: [\d.]+ kB; free: /);
    expect(pulled.stdout).toMatch(/Installed: tiny-e5/);
    // Not a TTY: one progress line per file, ending at 100%.
    expect(pulled.stderr.trim().split('\n').at(-1)).toMatch(/^\[#{20}\] 100% .*tiny-e5\/onnx\/model_quantized\.onnx$/);

    const after = await run([], { modelsDir });
    expect(after.stdout).toMatch(/tiny-e5 \*\s+text_embedding\s+installed\s+[\d.]+ kB/);
    expect(after.stdout).toMatch(/tiny-whisper \*\s+asr\s+missing/);
  });

  it('asks before downloading and does nothing without a yes', async () => {
    const modelsDir = mkdtempSync(join(tmp, 'models-'));
    const before = hub.requests.length;
    // No answer on stdin (a script): a usage error, as a missing --yes is.
    const eof = await run(['pull'], { modelsDir });
    expect(eof.code).toBe(EXIT.USAGE);
    expect(eof.stderr).toMatch(/Download now\? \[y\/N\] \nvidx models: no answer on stdin: re-run with --yes to download\n/);
    expect(eof.stdout).toMatch(/tiny-whisper[\s\S]*tiny-clip[\s\S]*tiny-e5/);

    const no = await run(['pull', 'default'], { modelsDir, stdin: ['n\n'] });
    expect(no.code).toBe(EXIT.FAILED);
    expect(no.stderr).toMatch(/Not downloading\.\n$/);
    expect(hub.requests.length).toBe(before);

    const yes = await run(['pull', 'default'], { modelsDir, stdin: ['y\n'] });
    expect(yes.code).toBe(EXIT.OK);
    expect(yes.stdout).toMatch(/Installed: tiny-whisper, tiny-clip, tiny-e5/);

    const again = await run(['pull', 'default'], { modelsDir });
    expect(again).toMatchObject({ code: EXIT.OK });
    expect(again.stdout).toMatch(/Already installed: tiny-whisper, tiny-clip, tiny-e5/);
  });

  it('reports usage errors and download failures with the CLI\'s exit codes', async () => {
    const modelsDir = mkdtempSync(join(tmp, 'models-'));
    const requestsBefore = hub.requests.length;
    const unknown = await run(['frobnicate'], { modelsDir });
    expect(unknown).toMatchObject({ code: EXIT.USAGE, stdout: '' });
    expect(unknown.stderr).toBe('vidx models: unknown command: frobnicate (list, pull, import or export)\nRun "vidx models --help" for usage.\n');
    const nope = await run(['pull', 'nope', '--yes'], { modelsDir });
    expect(nope.code).toBe(EXIT.USAGE);
    expect(nope.stderr).toMatch(/^vidx models: .*nope/);
    expect((await run(['pull', '--force'], { modelsDir })).stderr).toMatch(/^vidx models: Unknown option '--force'/);
    // Each flag belongs to its command; --model wants its value.
    for (const args of [['pull', '--force'], ['import', './x', '--yes'], ['list', '--model', 'tiny-e5'], ['import', './x', '--model'], ['export'], ['list', 'extra']]) {
      expect((await run(args, { modelsDir })).code, args.join(' ')).toBe(EXIT.USAGE);
    }
    expect(hub.requests.length).toBe(requestsBefore);

    const stdout = capture();
    const stderr = capture();
    const code = await runModels(['pull', 'tiny-clip', '--yes'], {
      modelsDir,
      hubUrl: `${hub.url}/no-such-prefix`,
      manifestPath: fixtures.manifestPath,
      stdin: Readable.from([]),
      stdout: stdout.stream,
      stderr: stderr.stream,
    });
    expect(code).toBe(EXIT.FAILED);
    expect(stderr.text()).toMatch(/Download failed: HTTP 404/);
  });
});
