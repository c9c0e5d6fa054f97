/** The signed-in page: header with navigation, language and sign-out; the view the hash route names. */
import { useEffect } from 'preact/hooks';
import { LangSwitch } from './components/LangSwitch.js';
import { useSession } from './context.js';
import { t } from './i18n.js';
import { href, useRoute, type Route } from './router.js';
import { likeOf } from './picture-query.js';
import { Add } from './views/Add.js';
import { Collections } from './views/Collections.js';
import { Duplicates } from './views/Duplicates.js';
import { Explore } from './views/Explore.js';
import { Items } from './views/Items.js';
import { People } from './views/People.js';
import { Places } from './views/Places.js';
import { Time } from './views/Time.js';
import { Player } from './views/Player.js';
import { Search } from './views/Search.js';
import { Tasks } from './views/Tasks.js';
import { Models } from './views/Models.js';

const LAST = 'vidx.collection';

/** A span of recording times the items grid is limited to (a month of the timeline), or null. */
function spanOf(params: URLSearchParams): { after: string; before: string; label: string } | null {
  const after = params.get('after');
  const before = params.get('before');
  return after && before ? { after, before, label: params.get('span') ?? '' } : null;
}

function view(route: Route) {
  const c = route.collection ?? '';
  const pub = route.params.get('pub') === '1';
  switch (route.view) {
    case 'items': return <Items collection={c} pub={pub} near={route.params.get('near') ?? ''} nearKm={Number(route.params.get('km') ?? '') || undefined} place={route.params.get('place') ?? ''} span={spanOf(route.params)} />;
    case 'time': return <Time collection={c} pub={pub} eventId={route.params.get('event') ?? ''} />;
    case 'search': return <Search collection={c} pub={pub} query={route.params.get('q') ?? ''} exact={route.params.get('exact') === '1'} img={route.params.get('img') ?? ''} like={likeOf(route.params)} />;
    case 'duplicates': return <Duplicates collection={c} />;
    case 'places': return <Places collection={c} pub={pub} />;
    case 'explore': return <Explore collection={c} pub={pub} />;
    case 'people': return <People collection={c} personId={route.personId} />;
    case 'play': return <Player collection={c} mediaId={route.mediaId ?? ''} pub={pub} start={Number(route.params.get('t') ?? 0) || 0} />;
    case 'add': return <Add initial={route.params.get('c') ?? localStorage.getItem(LAST) ?? ''} />;
    case 'tasks': return <Tasks />;
    case 'models': return <Models />;
    default: return <Collections />;
  }
}

/**
 * Header (navigation, language, sign-out) and the view the hash route names.
 * @example
 * <Shell onSignOut={signOut} />
 */
export function Shell({ onSignOut }: { onSignOut: () => void }) {
  const { me } = useSession();
  const route = useRoute();
  const ownCollection = route.params.get('pub') === '1' ? undefined : route.collection;
  useEffect(() => {
    if (ownCollection) localStorage.setItem(LAST, ownCollection);
  }, [ownCollection]);
  const last = route.collection ?? localStorage.getItem(LAST) ?? undefined;
  const pub = route.params.get('pub') === '1' ? { pub: 1 } : {};
  const links: [Route['view'], string, string][] = [
    ['collections', t('collections'), href()],
    // Inside a collection, search it; elsewhere, search every collection.
    ['search', t('search'), route.collection ? href('c', route.collection, 'search', pub) : href('search')],
    ['explore', t('explore'), last ? href('c', last, 'explore', pub) : href()],
    ['people', t('people'), last ? href('c', last, 'people') : href()],
    ['add', t('add'), href('add', last ? { c: last } : {})],
    ['tasks', t('tasks'), href('tasks')],
    ...(me.role === 'admin' ? ([['models', t('models'), href('models')]] as [Route['view'], string, string][]) : []),
  ];
  const active = route.view === 'items' || route.view === 'play' || route.view === 'duplicates' || route.view === 'places' || route.view === 'time' ? 'collections' : route.view;
  return (
    <>
      <header class="top">
        <a class="logo" href={href()}>vidx</a>
        <nav aria-label={t('nav')}>
          {links.map(([v, label, link]) => (
            <a key={v} href={link} aria-current={active === v ? 'page' : undefined}>{label}</a>
          ))}
        </nav>
        <div class="row tools">
          <LangSwitch />
          <span class="who" title={me.role}>{me.name}</span>
          <button type="button" onClick={onSignOut}>{t('signOut')}</button>
        </div>
      </header>
      <main id="main" tabIndex={-1}>{view(route)}</main>
    </>
  );
}
