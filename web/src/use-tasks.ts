/** Views read the page's task list through this hook: one shared poller per signed-in client (tasks-store.ts). */
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Api, Task } from './api.js';
import { useSession } from './context.js';
import { TasksStore } from './tasks-store.js';

/** One store per client: signing in again with another key starts a new list. */
const stores = new WeakMap<Api, TasksStore>();

function storeFor(api: Api): TasksStore {
  let store = stores.get(api);
  if (!store) {
    store = new TasksStore(() => api.tasks());
    stores.set(api, store);
  }
  return store;
}

/**
 * The page's tasks, newest first, while mounted; calls `onFinished` when a task that was open is no longer.
 * The latest `onFinished` is called, so callers may pass a new closure on every render.
 * @example
 * const tasks = useTasks(() => items.reload());
 */
export function useTasks(onFinished?: () => void): Task[] {
  const { api } = useSession();
  const store = storeFor(api);
  const [tasks, setTasks] = useState<Task[]>(() => store.current());
  const finishedRef = useRef(onFinished);
  finishedRef.current = onFinished;
  useEffect(() => {
    setTasks(store.current());
    return store.subscribe((list, finished) => {
      setTasks(list);
      if (finished.length) finishedRef.current?.();
    });
  }, [store]);
  return tasks;
}
