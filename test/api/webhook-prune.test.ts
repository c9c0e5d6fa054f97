import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DELIVERY_RETENTION_MS, DEFAULT_DELIVERY_POLICY, WebhookSender } from '../../src/services/webhook-sender.js';
import { openStore, type Store } from '../../src/store/index.js';
import { egressPolicy } from '../../src/media/index.js';

describe('webhook deliveries are pruned after the retention age', () => {
  // Pruning is the sender's and the repository's: an in-memory store, no server, and no running sender to race.
  let store: Store;
  beforeAll(() => {
    store = openStore(':memory:');
  });
  afterAll(() => store.close());

  it('deletes finished deliveries older than 30 days, keeps newer ones and every pending one', () => {
    const repo = store.webhooks;
    const now = Date.now();
    const iso = (ageMs: number) => new Date(now - ageMs).toISOString();
    repo.insert({ id: 'wh1', owner: 'o', url: 'http://127.0.0.1:9/hook', events: '[]', secret: 's', created_at: iso(0), updated_at: iso(0) });
    const day = 24 * 3600 * 1000;
    const rows: [string, 'pending' | 'delivered' | 'failed', number][] = [
      ['old-delivered', 'delivered', 31 * day],
      ['old-failed', 'failed', 40 * day],
      ['old-pending', 'pending', 60 * day],
      ['new-delivered', 'delivered', 29 * day],
    ];
    for (const [id, status, age] of rows) {
      repo.insertDelivery({
        id, webhook_id: 'wh1', event: 'task.completed', body: '{}', status, attempts: 1,
        // Far in the future: never due, whoever looks.
        next_attempt_at: now + 365 * day, last_error: null, response_status: null, created_at: iso(age), updated_at: iso(age),
      });
    }
    expect(DELIVERY_RETENTION_MS).toBe(30 * day);
    const sender = new WebhookSender(repo, DEFAULT_DELIVERY_POLICY, 'test', egressPolicy({ loopback: true }));
    expect(sender.prune(now)).toBe(2);
    expect(repo.listDeliveries('wh1', 10).map((d) => d.id).sort()).toEqual(['new-delivered', 'old-pending']);
    expect(sender.prune(now + 2 * day)).toBe(1);
    expect(repo.listDeliveries('wh1', 10).map((d) => d.id)).toEqual(['old-pending']);
  });
});
