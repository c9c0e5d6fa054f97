/** The page's task store (web/src/tasks-store.ts), run under node with fake timers: one poller however many views listen. */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Task } from '../../web/src/api.js';
import { IDLE_MS, OPEN_MS, TasksStore, tasksChanged } from '../../web/src/tasks-store.js';

const task = (id: string, status: Task['status']) => ({ id, status }) as Task;

/** A fake GET /tasks that counts its calls and answers the list it is given. */
function fakeServer(list: Task[] = []) {
  const server = { calls: 0, list, load: async () => { server.calls++; return { tasks: server.list }; } };
  return server;
}

beforeEach(() => { vi.useFakeTimers(); });
afterEach(() => { vi.useRealTimers(); });

describe('the page task store', () => {
  it('asks once per period for two listeners, faster while a task is open, and not at all without listeners', async () => {
    const server = fakeServer();
    const store = new TasksStore(server.load);
    const a = vi.fn();
    const b = vi.fn();
    const offA = store.subscribe(a);
    const offB = store.subscribe(b);
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls).toBe(1);
    expect(a).toHaveBeenCalledTimes(1);
    expect(b).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(IDLE_MS * 3);
    expect(server.calls).toBe(4);
    server.list = [task('t1', 'running')];
    await vi.advanceTimersByTimeAsync(IDLE_MS);
    expect(server.calls).toBe(5);
    await vi.advanceTimersByTimeAsync(OPEN_MS * 4);
    expect(server.calls).toBe(9);
    offA();
    offB();
    await vi.advanceTimersByTimeAsync(IDLE_MS * 3);
    expect(server.calls).toBe(9);
  });

  it('tells its listeners which open tasks finished, and refreshes at once on tasksChanged()', async () => {
    const server = fakeServer([task('t1', 'queued'), task('t2', 'running')]);
    const store = new TasksStore(server.load);
    const heard: string[][] = [];
    const off = store.subscribe((_, finished) => heard.push(finished));
    await vi.advanceTimersByTimeAsync(0);
    server.list = [task('t1', 'completed'), task('t2', 'running')];
    tasksChanged();
    await vi.advanceTimersByTimeAsync(0);
    expect(server.calls).toBe(2);
    expect(heard).toEqual([[], ['t1']]);
    off();
  });

  it('asks again after a request under way when a change is announced during it', async () => {
    let release = () => {};
    let calls = 0;
    const store = new TasksStore(() => {
      calls++;
      return new Promise((resolve) => { release = () => resolve({ tasks: [] }); });
    });
    const off = store.subscribe(() => {});
    tasksChanged();
    tasksChanged();
    expect(calls).toBe(1);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
    release();
    await vi.advanceTimersByTimeAsync(0);
    expect(calls).toBe(2);
    off();
  });
});
