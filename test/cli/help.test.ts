import { describe, expect, it } from 'vitest';
import { runCli } from '../support/cli.js';

const COMMANDS = ['serve', 'doctor', 'index', 'folders', 'analyze', 'search', 'tasks', 'collections', 'mcp', 'keys', 'models', 'worker'];

describe('vidx help and usage errors', () => {
  it('lists every command with the exit codes', async () => {
    const r = await runCli(['--help']);
    expect(r.code).toBe(0);
    for (const c of COMMANDS) expect(r.stdout).toMatch(new RegExp(`^  ${c}\\b`, 'm'));
    expect(r.stdout).toMatch(/3 cannot reach the server, 4 key missing or refused/);
  });

  it('gives help for each command, after the command and through "help <command>"', async () => {
    const runs = await Promise.all(COMMANDS.map((c) => runCli([c, '--help'])));
    runs.forEach((r, i) => {
      expect(r.code, `${COMMANDS[i]}: ${r.stderr}`).toBe(0);
      expect(r.stdout, COMMANDS[i]).toMatch(/Usage/);
    });
    expect(runs[COMMANDS.indexOf('index')].stdout).toMatch(/--collection C[\s\S]*--no-wait[\s\S]*--json[\s\S]*Exit codes/);
    const viaHelp = await runCli(['help', 'search']);
    expect(viaHelp.stdout).toBe(runs[COMMANDS.indexOf('search')].stdout);
  });

  it('exits 2 on an unknown command, an unknown flag or a missing argument, naming the problem', async () => {
    const [unknown, flag, missing, noQuery] = await Promise.all([
      runCli(['frobnicate']),
      runCli(['tasks', 'list', '--bogus']),
      runCli(['index', 'x.mp4']),
      runCli(['search', '--collection', 'c']),
    ]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command "frobnicate"/);
    expect(flag.code).toBe(2);
    expect(flag.stderr).toMatch(/--bogus/);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--collection is required/);
    expect(noQuery.code).toBe(2);
    expect(noQuery.stderr).toMatch(/give a query/);
  });

  it('exits 3 when no server answers, saying how to start one', async () => {
    const r = await runCli(['collections', 'list', '--url', 'http://127.0.0.1:9']);
    expect(r.code).toBe(3);
    expect(r.stderr).toMatch(/cannot reach vidx at http:\/\/127\.0\.0\.1:9.*vidx serve/);
  });
});
