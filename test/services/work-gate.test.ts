import { describe, expect, it } from 'vitest';
import { WorkGate } from '../../src/services/work-gate.js';

/** A unit of work that ends when told to, recording when it started. */
function unit(log: string[], name: string) {
  let end!: () => void;
  const ended = new Promise<void>((r) => {
    end = r;
  });
  const run = async () => {
    log.push(name);
    await ended;
  };
  return { run, end };
}

describe('work gate: one bound, owners in turn', () => {
  it('never runs more than its limit, and serves waiting owners in turn, not first come first served', async () => {
    const gate = new WorkGate(1);
    const log: string[] = [];
    const a = [1, 2, 3, 4].map((n) => unit(log, `a${n}`));
    const b = [1, 2].map((n) => unit(log, `b${n}`));
    const runs = [...a.map((u) => gate.run('a', u.run)), ...b.map((u) => gate.run('b', u.run))];
    await Promise.resolve();
    expect(gate.counts()).toMatchObject({ limit: 1, running: 1, queued: 5 });
    for (const u of [a[0], b[0], a[1], b[1], a[2], a[3]]) {
      await new Promise((r) => setImmediate(r));
      u!.end();
    }
    await Promise.all(runs);
    // a1 was running when the rest arrived; after it, owners alternate while both wait.
    expect(log).toEqual(['a1', 'b1', 'a2', 'b2', 'a3', 'a4']);
    expect(gate.counts()).toEqual({ limit: 1, running: 0, queued: 0, peak: 1, spare: 0 });
  });

  it('uses every slot, and a waiter whose signal fires leaves the line without a slot', async () => {
    const gate = new WorkGate(2);
    const r1 = await gate.acquire('a');
    const r2 = await gate.acquire('b');
    const gaveUp = new AbortController();
    const waiting = gate.acquire('c', gaveUp.signal);
    const next = gate.acquire('d');
    expect(gate.counts()).toMatchObject({ running: 2, queued: 2 });
    gaveUp.abort(new Error('task deleted'));
    await expect(waiting).rejects.toThrow('task deleted');
    expect(gate.counts().queued).toBe(1);
    r1();
    r1(); // a second release is ignored
    const r4 = await next;
    expect(gate.counts()).toMatchObject({ running: 2, queued: 0, peak: 2 });
    r2();
    r4();
    expect(gate.counts().running).toBe(0);
  });

  it('follows a resize: none while no worker is there, slots handed out as they come, none taken from running units', async () => {
    const gate = new WorkGate(1);
    gate.resize(0);
    let got = false;
    const waiting = gate.acquire('a').then((release) => {
      got = true;
      return release;
    });
    await new Promise((r) => setImmediate(r));
    expect(got).toBe(false);
    expect(gate.counts()).toMatchObject({ limit: 0, running: 0, queued: 1 });
    gate.resize(2);
    const r1 = await waiting;
    const r2 = await gate.acquire('b');
    gate.resize(1);
    expect(gate.counts()).toMatchObject({ limit: 1, running: 2, queued: 0, peak: 2 });
    r1();
    let third = false;
    const r3 = gate.acquire('c').then((release) => {
      third = true;
      return release;
    });
    await new Promise((r) => setImmediate(r));
    expect(third).toBe(false);
    r2();
    (await r3)();
    expect(() => gate.resize(-1)).toThrow();
  });

  it("lends its spare slot only to an owner with nothing running, and takes turns for it", async () => {
    const gate = new WorkGate(1, 1);
    const a1 = await gate.acquire('a');
    // a already runs: its second unit waits for the regular slot, never takes the spare.
    let a2got = false;
    const a2 = gate.acquire('a').then((r) => {
      a2got = true;
      return r;
    });
    // b runs nothing: it starts at once on the spare.
    const b1 = await gate.acquire('b');
    expect(gate.counts()).toMatchObject({ limit: 1, spare: 1, running: 2, queued: 1 });
    // c runs nothing either, but the spare is taken: it waits, and is served before a (served already).
    let cgot = false;
    const c1 = gate.acquire('c').then((r) => {
      cgot = true;
      return r;
    });
    await new Promise((r) => setImmediate(r));
    expect([a2got, cgot]).toEqual([false, false]);
    b1();
    await new Promise((r) => setImmediate(r));
    expect([a2got, cgot]).toEqual([false, true]);
    a1();
    (await c1)();
    (await a2)();
    expect(gate.counts()).toMatchObject({ running: 0, queued: 0, peak: 2 });
    expect(() => new WorkGate(1, -1)).toThrow(/spare/);
  });

  it('refuses a gate without slots', () => {
    expect(() => new WorkGate(0)).toThrow(/at least one slot/);
  });
});
