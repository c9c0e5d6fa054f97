/**
 * A collection by time: its events (a day, a trip; newest first, each with its cover, title and counts, and
 * a name of one's own), one event's items, and the timeline of years and months, a month opening the grid of
 * what was recorded in it.
 */
import { useState } from 'preact/hooks';
import type { TimeEvent } from '../api.js';
import { ItemCard } from '../components/ItemCard.js';
import { useSession } from '../context.js';
import { useCollections } from '../collection-names.js';
import { lang, t } from '../i18n.js';
import { useLoad } from '../load.js';
import { href } from '../router.js';

const locale = () => (lang() === 'de' ? 'de-DE' : 'en-GB');

/** A month's name in the page's language ("May 2024", "Mai 2024"). */
function monthName(year: number, month: number, withYear: boolean): string {
  return new Intl.DateTimeFormat(locale(), withYear ? { month: 'long', year: 'numeric' } : { month: 'short' }).format(new Date(year, month - 1, 15));
}

function EventCard({ collection, pub, event }: { collection: string; pub: boolean; event: TimeEvent }) {
  const counts = [['video', event.counts.video], ['image', event.counts.image], ['audio', event.counts.audio]] as const;
  return (
    <li class="card event" data-event={event.event_id}>
      <a href={href('c', collection, 'time', { event: event.event_id, ...(pub ? { pub: 1 } : {}) })} class="stack tight">
        {event.cover?.thumbnail_url ? <img class="event-cover" src={event.cover.thumbnail_url} alt="" loading="lazy" /> : <span class="ph event-cover" />}
        <strong data-event-title>{event.title}</strong>
      </a>
      <span class="muted">{counts.filter(([, n]) => n > 0).map(([type, n]) => t(`count_${type}`, n)).join(' · ')}</span>
    </li>
  );
}

function OneEvent({ collection, pub, eventId }: { collection: string; pub: boolean; eventId: string }) {
  const { api, notify } = useSession();
  const one = useLoad(() => api.event(collection, pub, eventId), [api, collection, pub, eventId]);
  const [editing, setEditing] = useState<string | null>(null);
  const e = one.value;
  const save = (name: string) => api.renameEvent(collection, eventId, name.trim() || null).then(() => { setEditing(null); one.reload(); }, (err: Error) => notify(t('error', err.message), 'error'));
  return (
    <div class="stack">
      <a href={href('c', collection, 'time', pub ? { pub: 1 } : {})}>{t('allEvents')}</a>
      {one.error && <p class="error" role="alert">{t('error', one.error.message)}</p>}
      {e && (
        <>
          {editing === null ? (
            <div class="row wrap">
              <h3 data-event-title>{e.title}</h3>
              {!pub && <button type="button" onClick={() => setEditing(e.name ?? e.title)}>{t('renameEvent')}</button>}
            </div>
          ) : (
            <form class="row wrap" onSubmit={(ev) => { ev.preventDefault(); void save(editing); }}>
              <label for="event-name" class="sr">{t('eventName')}</label>
              <input id="event-name" value={editing} maxLength={200} onInput={(ev) => setEditing(ev.currentTarget.value)} />
              <button type="submit" class="primary">{t('save')}</button>
              <button type="button" onClick={() => setEditing(null)}>{t('cancel')}</button>
            </form>
          )}
          <ul class="cards grid" aria-label={t('items')}>
            {e.items.map((item) => <ItemCard key={item.media_id} collection={collection} pub={pub} item={item} />)}
          </ul>
        </>
      )}
    </div>
  );
}

function Timeline({ collection, pub }: { collection: string; pub: boolean }) {
  const { api } = useSession();
  const timeline = useLoad(() => api.timeline(collection, pub), [api, collection, pub]);
  const tl = timeline.value;
  if (!tl) return null;
  return (
    <section class="stack tight" aria-labelledby="timeline-h" data-timeline>
      <h3 id="timeline-h">{t('years')}</h3>
      {tl.years.length === 0 && <p class="muted">{t('nothingDated')}</p>}
      <ol class="stack tight year-list">
        {[...tl.years].reverse().map((y) => (
          <li key={y.year} class="stack tight" data-year={y.year}>
            <a href={href('c', collection, { after: y.from, before: y.to, span: String(y.year), ...(pub ? { pub: 1 } : {}) })}><strong>{y.year}</strong> <span class="muted">{t('itemsCount', y.items)}</span></a>
            <ul class="row wrap months">
              {y.months.map((m) => (
                <li key={m.month}>
                  <a class="button" data-month={`${y.year}-${m.month}`} href={href('c', collection, { after: m.from, before: m.to, span: monthName(y.year, m.month, true), ...(pub ? { pub: 1 } : {}) })}
                    aria-label={`${monthName(y.year, m.month, true)}: ${t('itemsCount', m.items)}`}>
                    {monthName(y.year, m.month, false)} <span class="muted">{m.items}</span>
                  </a>
                </li>
              ))}
            </ul>
          </li>
        ))}
      </ol>
      {tl.undated > 0 && <p class="muted" data-undated>{t('undatedCount', tl.undated)}</p>}
    </section>
  );
}

/**
 * The Time view.
 * @example
 * <Time collection="family" pub={false} eventId="" />
 */
export function Time({ collection, pub, eventId }: { collection: string; pub: boolean; eventId: string }) {
  const { api } = useSession();
  const { name } = useCollections(api);
  const events = useLoad(() => (eventId ? Promise.resolve(null) : api.events(collection, pub)), [api, collection, pub, eventId]);
  return (
    <div class="stack">
      <div class="row between wrap">
        <h2>{t('time')} · <a href={href('c', collection, pub ? { pub: 1 } : {})}>{name(collection)}</a></h2>
      </div>
      {eventId ? <OneEvent collection={collection} pub={pub} eventId={eventId} /> : (
        <>
          <section class="stack tight" aria-labelledby="events-h">
            <h3 id="events-h">{t('events')}</h3>
            {events.error && <p class="error" role="alert">{t('error', events.error.message)}</p>}
            {events.value && events.value.events.length === 0 && <p class="muted">{t('nothingDated')}</p>}
            <ul class="cards grid" data-events>
              {(events.value?.events ?? []).map((e) => <EventCard key={e.event_id} collection={collection} pub={pub} event={e} />)}
            </ul>
          </section>
          <Timeline collection={collection} pub={pub} />
        </>
      )}
    </div>
  );
}
