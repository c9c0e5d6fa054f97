/**
 * "On this day": what the collection recorded on today's calendar day in earlier years, as a card of small
 * pictures by year at the top of its grid; nothing when there is nothing (GET …/on-this-day).
 */
import { useSession } from '../context.js';
import { lang, t } from '../i18n.js';
import { useLoad } from '../load.js';
import { href } from '../router.js';

/**
 * The card; absent while it loads and on a day with nothing from earlier years.
 * @example
 * <OnThisDay collection="family" pub={false} />
 */
export function OnThisDay({ collection, pub }: { collection: string; pub: boolean }) {
  const { api } = useSession();
  const day = useLoad(() => api.onThisDay(collection, pub), [api, collection, pub]);
  const years = day.value?.years ?? [];
  if (years.length === 0) return null;
  const today = new Intl.DateTimeFormat(lang() === 'de' ? 'de-DE' : 'en-GB', { day: 'numeric', month: 'long' }).format(new Date(`${day.value!.date}T12:00:00`));
  return (
    <section class="card stack tight" data-on-this-day aria-labelledby="otd-h">
      <h3 id="otd-h">{t('onThisDay', today)}</h3>
      {years.map((y) => (
        <div key={y.year} class="stack tight" data-year={y.year}>
          <strong>{t('yearsAgo', new Date().getFullYear() - y.year, y.year)}</strong>
          <ul class="row wrap" aria-label={String(y.year)}>
            {y.items.slice(0, 12).map((item) => (
              <li key={item.media_id}>
                <a href={href('c', collection, 'play', item.media_id, pub ? { pub: 1 } : {})} aria-label={item.title || item.media_id}>
                  {item.thumbnail_url ? <img class="thumb-small" src={item.thumbnail_url} alt="" loading="lazy" /> : <span class="ph thumb-small" />}
                </a>
              </li>
            ))}
          </ul>
        </div>
      ))}
    </section>
  );
}
