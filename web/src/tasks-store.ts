/**
 * The page's one source of task state: one store per signed-in client polls GET /tasks with one timer,
 * only while some view listens, faster while tasks are open. Every view that shows tasks reads it.
 */
import type { Task } from './api.js';

/** Poll period while some task is queued or running: progress should move visibly. */
export const OPEN_MS = 1500;
/** Poll period while nothing is open: only new tasks from elsewhere (another tab, the CLI) are waited for. */
export const IDLE_MS = 4000;

/** A listener hears the new list and the ids of tasks that were open in the list before and are not now. */
export type TasksListener = (tasks: Task[], finished: string[]) => void;

const isOpen = (task: Task) => task.status === 'queued' || task.status === 'running';

/** Stores that poll now; `tasksChanged()` asks each of them at once. */
const running = new Set<TasksStore>();

/**
 * Polls a task list for its listeners: one request at a time, one timer, none without listeners.
 * @example
 * const store = new TasksStore(() => api.tasks());
 * const stop = store.subscribe((tasks) => draw(tasks));
 */
export class TasksStore {
  private tasks: Task[] = [];
  private readonly listeners = new Set<TasksListener>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private inFlight = false;
  /** A refresh was asked for while a request was under way: its answer may predate the change. */
  private again = false;
  /** Bumped on stop, so an answer that arrives after the last listener left is dropped. */
  private generation = 0;

  constructor(private readonly load: () => Promise<{ tasks: Task[] }>) {}

  /** The latest list (empty before the first answer). */
  current(): Task[] {
    return this.tasks;
  }

  /** Adds a listener; the first one starts polling at once. Returns the unsubscribe. */
  subscribe(listener: TasksListener): () => void {
    this.listeners.add(listener);
    if (this.listeners.size === 1) {
      running.add(this);
      void this.refresh();
    }
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.stop();
    };
  }

  /** Asks now (or right after the request under way), then goes on at the usual period. */
  async refresh(): Promise<void> {
    if (!this.listeners.size) return;
    if (this.inFlight) {
      this.again = true;
      return;
    }
    clearTimeout(this.timer);
    this.inFlight = true;
    const generation = this.generation;
    try {
      const { tasks } = await this.load();
      if (generation === this.generation) this.publish(tasks);
    } catch {
      // The next tick tries again; a signed-out key ends at the sign-in form anyway.
    } finally {
      if (generation === this.generation) this.inFlight = false;
    }
    if (generation !== this.generation) return;
    if (this.again) {
      this.again = false;
      return this.refresh();
    }
    this.timer = setTimeout(() => void this.refresh(), this.tasks.some(isOpen) ? OPEN_MS : IDLE_MS);
  }

  private publish(tasks: Task[]): void {
    const now = new Set(tasks.filter(isOpen).map((x) => x.id));
    const finished = this.tasks.filter((x) => isOpen(x) && !now.has(x.id)).map((x) => x.id);
    this.tasks = tasks;
    for (const listener of [...this.listeners]) listener(tasks, finished);
  }

  private stop(): void {
    running.delete(this);
    clearTimeout(this.timer);
    this.timer = undefined;
    this.generation++;
    this.inFlight = false;
    this.again = false;
    // A later first listener starts from nothing, as a fresh view did before: no "finished" from an old list.
    this.tasks = [];
  }
}

/**
 * Asks every polling task store on the page to refresh now (after the page created, retried or deleted a task).
 * @example
 * api.retryTask(id).then(tasksChanged);
 */
export function tasksChanged(): void {
  for (const store of running) void store.refresh();
}
