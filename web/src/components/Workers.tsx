/**
 * The job queue's workers, for admins on the Tasks view: each with its host, how busy it is, whether it
 * takes this server's jobs, and when it was last heard; a warning while Redis is away. Nothing without a
 * job queue (analyses run in the server then).
 */
import { useEffect, useState } from 'preact/hooks';
import type { WorkerList } from '../api.js';
import { useSession } from '../context.js';
import { dateTime } from '../format.js';
import { t, useLang } from '../i18n.js';

/** Asks GET /workers every 3 s. */
function useWorkers(): WorkerList | null {
  const { api } = useSession();
  const [list, setList] = useState<WorkerList | null>(null);
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout>;
    const tick = async () => {
      try {
        const next = await api.workers();
        if (!stop) setList(next);
      } catch {
        // The next tick asks again.
      }
      if (!stop) timer = setTimeout(tick, 3000);
    };
    void tick();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [api]);
  return list;
}

/**
 * The workers section (admins; nothing without a job queue).
 * @example
 * {me.role === 'admin' && <Workers />}
 */
export function Workers() {
  const list = useWorkers();
  const lang = useLang();
  if (!list?.queue) return null;
  const { queue, workers } = list;
  return (
    <section class="card stack tight workers" aria-labelledby="workers-h" data-queue={queue.connected ? 'up' : 'down'}>
      <h3 id="workers-h">{t('workers')}</h3>
      {!queue.connected && <p class="error" role="alert">{t('queueDown', queue.url)}</p>}
      {queue.connected && workers.length === 0 && <p class="muted">{t('noWorkers')}</p>}
      <ul class="stack tight">
        {workers.map((w) => (
          <li key={w.id} class="row between wrap" data-worker={w.id}>
            <span>
              <strong>{w.id}</strong> <span class="muted">{w.local ? t('workerLocal') : w.host} · {w.version}</span>
            </span>
            {w.takes_jobs ? (
              <span data-busy={w.jobs.length}>{w.jobs.length ? t('workerBusy', w.jobs.length, w.concurrency) : t('workerIdle', w.concurrency)}</span>
            ) : (
              <span class="error" title={w.reason ?? ''} data-reason>{t('workerNoJobs')}</span>
            )}
            <time class="muted" dateTime={w.last_seen_at}>{t('workerSeen', dateTime(w.last_seen_at, lang))}</time>
          </li>
        ))}
      </ul>
    </section>
  );
}
