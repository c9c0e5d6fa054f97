import type { Db } from './connection.js';
import { prepared } from './statements.js';

/** A webhooks row; events is a JSON array of event names. */
export interface WebhookRow {
  id: string;
  owner: string;
  url: string;
  events: string;
  secret: string;
  created_at: string;
  updated_at: string;
}

/** A delivery waiting, done or given up; body is the exact JSON text that is signed and sent. */
export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event: string;
  body: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  response_status: number | null;
  created_at: string;
  updated_at: string;
}

/**
 * The webhooks and webhook_deliveries tables.
 * @example
 * new WebhookRepository(db).listByOwner(ownerId);
 */
export class WebhookRepository {
  constructor(private readonly db: Db) {}

  insert(row: WebhookRow): void {
    prepared(
      this.db,
      'INSERT INTO webhooks (id, owner, url, events, secret, created_at, updated_at) VALUES (@id, @owner, @url, @events, @secret, @created_at, @updated_at)',
    ).run(row);
  }

  get(id: string): WebhookRow | undefined {
    return prepared(this.db, 'SELECT * FROM webhooks WHERE id = ?').get(id) as WebhookRow | undefined;
  }

  countByOwner(owner: string): number {
    return prepared(this.db, 'SELECT count(*) FROM webhooks WHERE owner = ?').pluck().get(owner) as number;
  }

  listByOwner(owner: string): WebhookRow[] {
    return prepared(this.db, 'SELECT * FROM webhooks WHERE owner = ? ORDER BY created_at, id').all(owner) as WebhookRow[];
  }

  update(id: string, url: string, events: string, at: string): void {
    prepared(this.db, 'UPDATE webhooks SET url = ?, events = ?, updated_at = ? WHERE id = ?').run(url, events, at, id);
  }

  delete(id: string): void {
    prepared(this.db, 'DELETE FROM webhooks WHERE id = ?').run(id);
  }

  insertDelivery(row: DeliveryRow): void {
    prepared(
      this.db,
      `INSERT INTO webhook_deliveries (id, webhook_id, event, body, status, attempts, next_attempt_at, last_error, response_status, created_at, updated_at)
       VALUES (@id, @webhook_id, @event, @body, @status, @attempts, @next_attempt_at, @last_error, @response_status, @created_at, @updated_at)`,
    ).run(row);
  }

  /** Pending deliveries whose time has come, oldest first. */
  dueDeliveries(nowMs: number, limit: number): (DeliveryRow & { url: string; secret: string })[] {
    return prepared(
      this.db,
      `SELECT d.*, w.url, w.secret FROM webhook_deliveries d JOIN webhooks w ON w.id = d.webhook_id
       WHERE d.status = 'pending' AND d.next_attempt_at <= ? ORDER BY d.next_attempt_at, d.created_at LIMIT ?`,
    ).all(nowMs, limit) as (DeliveryRow & { url: string; secret: string })[];
  }

  nextDueAt(): number | null {
    const row = prepared(this.db, "SELECT min(next_attempt_at) AS t FROM webhook_deliveries WHERE status = 'pending'").get() as {
      t: number | null;
    };
    return row.t;
  }

  recordAttempt(
    id: string,
    outcome: { status: DeliveryRow['status']; attempts: number; nextAttemptAt: number; error: string | null; responseStatus: number | null },
    at: string,
  ): void {
    prepared(
      this.db,
      `UPDATE webhook_deliveries SET status = ?, attempts = ?, next_attempt_at = ?, last_error = ?, response_status = ?, updated_at = ? WHERE id = ?`,
    ).run(outcome.status, outcome.attempts, outcome.nextAttemptAt, outcome.error, outcome.responseStatus, at, id);
  }

  /** Deletes delivered and failed deliveries last updated before `beforeIso`; pending ones stay. */
  pruneFinished(beforeIso: string): number {
    return prepared(this.db, "DELETE FROM webhook_deliveries WHERE status IN ('delivered', 'failed') AND updated_at < ?").run(beforeIso).changes;
  }

  listDeliveries(webhookId: string, limit: number): DeliveryRow[] {
    return prepared(this.db, 'SELECT * FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at DESC LIMIT ?').all(
      webhookId,
      limit,
    ) as DeliveryRow[];
  }
}
