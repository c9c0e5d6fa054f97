import { msg } from '../messages/index.js';
import { randomBytes, randomUUID } from 'node:crypto';
import type { WebhookRepository, WebhookRow } from '../store/webhooks.js';
import type { TaskRow } from '../store/tasks.js';
import { ownsOrAdmin, type Caller } from './caller.js';
import { nowIso, systemClock, type WallClock } from './timestamps.js';
import { notFound, Problem } from './errors.js';
import type { TaskEvent } from './task-engine.js';
import type { TaskPresenter } from './tasks.js';

/** Every event a webhook can subscribe to; a webhook created without events gets all of them. */
export const TASK_EVENTS: readonly TaskEvent[] = ['task.started', 'task.completed', 'task.failed'];

/** A webhook as the API shows it (SPEC 2.10); the secret appears only in the create response. */
export interface WebhookView {
  id: string;
  url: string;
  events: TaskEvent[];
  created_at: string;
  updated_at: string;
  secret?: string;
}

function view(row: WebhookRow): WebhookView {
  return { id: row.id, url: row.url, events: JSON.parse(row.events) as TaskEvent[], created_at: row.created_at, updated_at: row.updated_at };
}

/**
 * Webhook registrations and the queueing of deliveries for task events.
 * @example
 * const hook = webhooks.create(caller, { url: 'http://127.0.0.1:9000/hook' });
 * hook.secret; // used to check x-vidx-signature
 */
export class WebhookService {
  constructor(
    private readonly repo: WebhookRepository,
    private readonly wake: () => void,
    private readonly presenter: TaskPresenter,
    /** Why a receiver URL is refused at registration (an address literal the delivery policy forbids), or null. */
    private readonly refuseUrl: (url: string) => string | null = () => null,
    /** Webhooks one key may have (VIDX_MAX_WEBHOOKS_PER_KEY): each task event is one delivery per webhook. */
    private readonly maxPerKey = 100,
    /** What stamps a webhook's and a delivery's times: the app's clock. */
    private readonly time: WallClock = systemClock,
  ) {}

  private checkUrl(url: string): void {
    const why = this.refuseUrl(url);
    if (why) throw new Problem('invalid', msg('webhook_url_refused', { reason: msg('as_given', { text: why }) }), [{ field: 'url', message: msg('as_given', { text: why }) }]);
  }

  create(caller: Caller, input: { url: string; events?: TaskEvent[] | null }): WebhookView {
    this.checkUrl(input.url);
    if (this.repo.countByOwner(caller.id) >= this.maxPerKey) {
      throw new Problem('conflict', msg('webhook_limit', { max: this.maxPerKey }));
    }
    const at = nowIso(this.time);
    const row: WebhookRow = {
      id: randomUUID(),
      owner: caller.id,
      url: input.url,
      events: JSON.stringify(dedupe(input.events ?? TASK_EVENTS)),
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      created_at: at,
      updated_at: at,
    };
    this.repo.insert(row);
    return { ...view(row), secret: row.secret };
  }

  list(caller: Caller): WebhookView[] {
    return this.repo.listByOwner(caller.id).map(view);
  }

  get(caller: Caller, id: string): WebhookView {
    return view(this.row(caller, id));
  }

  update(caller: Caller, id: string, patch: { url?: string | null; events?: TaskEvent[] | null }): WebhookView {
    const row = this.row(caller, id);
    if (patch.url) this.checkUrl(patch.url);
    const url = patch.url ?? row.url;
    const events = patch.events ? JSON.stringify(dedupe(patch.events)) : row.events;
    const at = nowIso(this.time);
    this.repo.update(id, url, events, at);
    return view({ ...row, url, events, updated_at: at });
  }

  delete(caller: Caller, id: string): WebhookView {
    const row = this.row(caller, id);
    this.repo.delete(id);
    return view(row);
  }

  /** Queues one delivery per subscribed webhook of the task's owner; sending happens beside the task. */
  enqueue(event: TaskEvent, task: TaskRow): void {
    const hooks = this.repo.listByOwner(task.owner).filter((h) => (JSON.parse(h.events) as string[]).includes(event));
    if (hooks.length === 0) return;
    const at = nowIso(this.time);
    for (const hook of hooks) {
      const id = randomUUID();
      const body = JSON.stringify({ id, event, created_at: at, task: this.presenter.view(task) });
      this.repo.insertDelivery({
        id,
        webhook_id: hook.id,
        event,
        body,
        status: 'pending',
        attempts: 0,
        next_attempt_at: Date.now(),
        last_error: null,
        response_status: null,
        created_at: at,
        updated_at: at,
      });
    }
    this.wake();
  }

  private row(caller: Caller, id: string): WebhookRow {
    const row = this.repo.get(id);
    if (!row || !ownsOrAdmin(caller, row.owner)) throw notFound('webhook', id);
    return row;
  }
}

function dedupe(events: readonly TaskEvent[]): TaskEvent[] {
  return TASK_EVENTS.filter((e) => events.includes(e));
}
