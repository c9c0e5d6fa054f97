import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fakeAnalyze } from '../support/fake-tasks.js';
import { startReceiver } from '../support/receiver.js';
import { startTestServer, waitFor, type TestServer } from '../support/server.js';

const sign = (secret: string, timestamp: string, body: string) => `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
const analyze = (title: string) => ({ video: { url: 'http://127.0.0.1:9/v.mp4', title } });

describe('webhooks', () => {
  let s: TestServer;
  let alice: string;
  let bob: string;
  const fake = fakeAnalyze();
  beforeAll(async () => {
    s = await startTestServer({ registerTasks: fake.register, deliveryPolicy: { timeoutMs: 300, retryDelaysMs: [50, 100] } });
    alice = await s.newKey();
    bob = await s.newKey();
  });
  afterAll(() => s.close());

  it('creates with all events by default, returns the secret once, reads, updates and deletes', async () => {
    const created = await s.call('POST', '/webhooks', { key: alice, json: { url: 'http://127.0.0.1:1/a' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ url: 'http://127.0.0.1:1/a', events: ['task.started', 'task.completed', 'task.failed'], secret: expect.stringMatching(/^whsec_/) });
    const id = created.body.id;
    const read = await s.call('GET', `/webhooks/${id}`, { key: alice });
    expect(read.body.secret).toBeUndefined();
    expect(read.body.events).toHaveLength(3);
    const nullEvents = await s.call('POST', '/webhooks', { key: alice, json: { url: 'http://127.0.0.1:1/b', events: null } });
    expect(nullEvents.body.events).toHaveLength(3);
    const upd = await s.call('PUT', `/webhooks/${id}`, { key: alice, json: { events: ['task.failed'] } });
    expect(upd.body).toMatchObject({ url: 'http://127.0.0.1:1/a', events: ['task.failed'] });
    const upd2 = await s.call('PUT', `/webhooks/${id}`, { key: alice, json: { url: 'https://127.0.0.1:1/x', events: null } });
    expect(upd2.body).toMatchObject({ url: 'https://127.0.0.1:1/x', events: ['task.failed'] });
    const list = await s.call('GET', '/webhooks', { key: alice });
    expect(list.body.webhooks.map((w: { id: string }) => w.id)).toContain(id);
    expect((await s.call('GET', '/webhooks', { key: bob })).body.webhooks).toEqual([]);
    expect((await s.call('GET', `/webhooks/${id}`, { key: bob })).status).toBe(404);
    expect((await s.call('PUT', `/webhooks/${id}`, { key: bob, json: { url: 'http://127.0.0.1:1/evil' } })).status).toBe(404);
    expect((await s.call('DELETE', `/webhooks/${id}`, { key: bob })).status).toBe(404);
    const del = await s.call('DELETE', `/webhooks/${id}`, { key: alice });
    expect(del.body.id).toBe(id);
    expect((await s.call('GET', `/webhooks/${id}`, { key: alice })).status).toBe(404);
    await s.call('DELETE', `/webhooks/${nullEvents.body.id}`, { key: alice });
  });

  it('validates url and events', async () => {
    const cases: [unknown, string][] = [
      [{}, 'url'],
      [{ url: '' }, 'url'],
      [{ url: 'not a url' }, 'url'],
      [{ url: 'ftp://127.0.0.1/x' }, 'url'],
      [{ url: `http://127.0.0.1/${'a'.repeat(2084)}` }, 'url'],
      [{ url: 'http://127.0.0.1/x', events: ['task.exploded'] }, 'events.0'],
      [{ url: 'http://127.0.0.1/x', events: 'task.failed' }, 'events'],
    ];
    for (const [json, field] of cases) {
      const r = await s.call('POST', '/webhooks', { key: alice, json });
      expect(r.status, JSON.stringify(json).slice(0, 80)).toBe(422);
      expect(r.body.errors.map((e: { field: string }) => e.field)).toContain(field);
    }
    expect((await s.call('POST', '/webhooks', { key: alice, json: { url: `http://127.0.0.1/${'a'.repeat(2060)}` } })).status).toBe(201);
  });

  it('delivers signed task.started and task.completed for the owner’s tasks only', async () => {
    const rx = await startReceiver();
    const hook = (await s.call('POST', '/webhooks', { key: alice, json: { url: `${rx.url}/hook` } })).body;
    const bobs = (await s.call('POST', '/webhooks', { key: bob, json: { url: `${rx.url}/bob` } })).body;
    const { task_id } = (await s.call('POST', '/analyze', { key: alice, form: analyze('ok') })).body;
    await waitFor(() => (rx.received.filter((r) => r.path === '/hook').length >= 2 ? true : undefined), 5000, 'two deliveries');
    const got = rx.received.filter((r) => r.path === '/hook');
    expect(got.map((r) => r.headers['x-vidx-event'])).toEqual(['task.started', 'task.completed']);
    for (const r of got) {
      const timestamp = String(r.headers['x-vidx-timestamp']);
      expect(Math.abs(Number(timestamp) - Date.now() / 1000)).toBeLessThan(300);
      expect(r.headers['x-vidx-signature']).toBe(sign(hook.secret, timestamp, r.body));
      expect(r.headers['content-type']).toBe('application/json');
      const body = JSON.parse(r.body);
      expect(body).toMatchObject({ id: r.headers['x-vidx-delivery'], event: r.headers['x-vidx-event'], task: { id: task_id } });
      expect(Date.parse(body.created_at)).not.toBeNaN();
    }
    expect(JSON.parse(got[1].body).task.status).toBe('completed');
    expect(rx.received.some((r) => r.path === '/bob')).toBe(false);
    await s.call('DELETE', `/webhooks/${hook.id}`, { key: alice });
    await s.call('DELETE', `/webhooks/${bobs.id}`, { key: bob });
    await rx.close();
  });

  it('sends only subscribed events and retries a failing receiver with backoff', async () => {
    const rx = await startReceiver((_r, n) => (n < 3 ? 500 : 200));
    const hook = (await s.call('POST', '/webhooks', { key: alice, json: { url: `${rx.url}/flaky`, events: ['task.failed'] } })).body;
    await s.call('POST', '/analyze', { key: alice, form: analyze('fail') });
    await waitFor(() => (rx.received.length >= 3 ? true : undefined), 5000, 'three attempts');
    expect(rx.received.map((r) => r.headers['x-vidx-event'])).toEqual(['task.failed', 'task.failed', 'task.failed']);
    expect(new Set(rx.received.map((r) => r.headers['x-vidx-delivery'])).size).toBe(1);
    expect(rx.received[1].at - rx.received[0].at).toBeGreaterThanOrEqual(40);
    expect(rx.received[2].at - rx.received[1].at).toBeGreaterThanOrEqual(90);
    // The receiver logs a request before its answer reaches vidx: wait until the attempt is recorded.
    await waitFor(() => (s.vidx.store.webhooks.listDeliveries(hook.id, 10)[0]?.status === 'delivered' ? true : undefined), 5000, 'delivery recorded');
    const rows = s.vidx.store.webhooks.listDeliveries(hook.id, 10);
    expect(rows[0]).toMatchObject({ status: 'delivered', attempts: 3, response_status: 200 });
    await s.call('DELETE', `/webhooks/${hook.id}`, { key: alice });
    await rx.close();
  });

  it('never lets a hanging receiver delay or fail a task, and gives up after the bounded retries', async () => {
    const rx = await startReceiver(() => 'hang');
    const hook = (await s.call('POST', '/webhooks', { key: alice, json: { url: `${rx.url}/hang` } })).body;
    const { task_id } = (await s.call('POST', '/analyze', { key: alice, form: analyze('ok') })).body;
    await waitFor(async () => ((await s.call('GET', `/tasks/${task_id}`, { key: alice })).body.status === 'completed' ? true : undefined));
    // The task completed while its deliveries were still trying the hanging receiver: none had given up yet.
    expect(s.vidx.store.webhooks.listDeliveries(hook.id, 10).some((r) => r.status === 'failed')).toBe(false);
    await waitFor(() => {
      const rows = s.vidx.store.webhooks.listDeliveries(hook.id, 10);
      return rows.length === 2 && rows.every((r) => r.status === 'failed') ? true : undefined;
    }, 8000, 'deliveries to give up');
    const rows = s.vidx.store.webhooks.listDeliveries(hook.id, 10);
    expect(rows.every((r) => r.attempts === 3 && /timeout|abort/i.test(r.last_error ?? ''))).toBe(true);
    await rx.close();
  });
});
