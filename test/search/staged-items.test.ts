/**
 * Issue 43: a large item is written in slices of short transactions (each item is staged here, and the
 * write is held after its slices to look at what readers see): a search, a list or an item's page never
 * shows it half written, a replaced version stays whole until the new one is shown in one transaction,
 * and a write cut short by a stop leaves nothing behind at the next start.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../support/server.js';
import { buildAnalysis, fixtureItem } from './fixtures.js';

/** A gate the staged writes wait at after each slice, while it is shut. */
function gate() {
  let open: () => void = () => {};
  let shut: Promise<void> | null = null;
  let arrived: () => void = () => {};
  let reached = new Promise<void>((r) => (arrived = r));
  const close = () => {
    shut = new Promise<void>((r) => (open = r));
    reached = new Promise<void>((r) => (arrived = r));
  };
  return {
    afterSlice: () => {
      const wait = shut;
      arrived();
      return wait ?? undefined;
    },
    shut: close,
    /** Resolves once a staged write waits at the gate. */
    reached: () => reached,
    /** Lets the waiting write go on for one more slice, and waits until it is back. */
    async step() {
      const go = open;
      close();
      go();
      await reached;
    },
    open() {
      open();
      shut = null;
    },
  };
}

const analysisSaying = (word: string) =>
  buildAnalysis({
    language: 'en',
    summary: `A talk about the ${word}.`,
    vectors: true,
    episodes: [
      { start: 0, end: 30, topic: 'nature', summary: `The ${word} sings.`, audio: [[0, 10, `Listen to the ${word} in the morning.`]], frames: [[5, 'nature']] },
      { start: 30, end: 60, topic: 'nature', summary: 'Quiet again.', audio: [[30, 40, 'Now it is quiet.']] },
    ],
  });

describe('items written in slices', () => {
  let s: TestServer;
  let pk: number;
  const g = gate();
  const search = async (query: string) => (await s.call('POST', '/search', { form: { collection: 'birds', query } })).body.results as { media_id: string }[];
  const items = async () => (await s.call('GET', '/collections/birds/items')).body.items as { media_id: string }[];
  const count = (sql: string, ...args: unknown[]) => s.vidx.store.db.prepare(sql).pluck().get(...args) as number;
  const store = (word: string, replace: boolean) =>
    s.vidx.searchIndex.storeItemInSlices(pk, fixtureItem(s.vidx, s.dataDir, 'birds', 'dawn', { title: 'Dawn chorus' }), analysisSaying(word), { replace });

  beforeAll(async () => {
    s = await startTestServer({ listen: false, queryEmbedder: null, slicing: { oneTransactionMs: 0, afterSlice: g.afterSlice } });
    expect((await s.call('POST', '/collections', { json: { collection_id: 'birds', name: 'Birds' } })).status).toBe(201);
    pk = s.vidx.store.collections.findById('birds')!.pk;
  });
  afterAll(() => s.close());

  it('shows a staged item to no reader until the transaction that shows it', async () => {
    g.shut();
    const stored = store('zebrafinch', false);
    await g.reached();
    // Its rows are written (its words in the collection's text table, its vectors in its index), yet nothing shows it.
    expect(count('SELECT count(*) FROM staged_items WHERE purpose = ?', 'storing')).toBe(1);
    expect(count(`SELECT count(*) FROM fts_words_${pk} WHERE fts_words_${pk} MATCH 'zebrafinch'`)).toBe(1);
    expect(await search('zebrafinch')).toEqual([]);
    expect(await items()).toEqual([]);
    expect((await s.call('GET', '/collections/birds/items/dawn')).status).toBe(404);
    // Slice by slice until its frame vector is written too: still nothing shows it.
    while (count('SELECT count(*) FROM vectors v JOIN vector_spaces p ON p.id = v.space_id WHERE p.kind = ?', 'frame') === 0) await g.step();
    expect(await search('zebrafinch')).toEqual([]);
    const space = s.vidx.store.search.spaces().find((x) => x.kind === 'frame')!;
    const all = s.vidx.store.db.prepare('SELECT pk FROM vectors').pluck().all() as number[];
    expect(s.vidx.store.search.vectorsByPk(all, pk, space.id)).toEqual([]);
    g.open();
    const done = await stored;
    expect(done.replaced).toBe(false);
    expect((await search('zebrafinch')).map((r) => r.media_id)).toEqual(['dawn']);
    expect((await items()).map((i) => i.media_id)).toEqual(['dawn']);
    expect(s.vidx.store.search.vectorsByPk(all, pk, space.id).length).toBe(1);
  });

  it('keeps a replaced version whole until the new one is shown, then removes it in slices', async () => {
    const cursor = s.vidx.store.items.find(pk, 'dawn')!.cursor;
    g.shut();
    const stored = store('kingfisher', true);
    await g.reached();
    expect((await search('zebrafinch')).map((r) => r.media_id)).toEqual(['dawn']);
    expect(await search('kingfisher')).toEqual([]);
    expect((await items()).map((i) => i.media_id)).toEqual(['dawn']);
    g.open();
    const done = await stored;
    expect(done.replaced).toBe(true);
    expect(done.item.cursor).toBe(cursor);
    expect((await search('kingfisher')).map((r) => r.media_id)).toEqual(['dawn']);
    expect(await search('zebrafinch')).toEqual([]);
    await s.vidx.searchIndex.idle();
    expect(count('SELECT count(*) FROM staged_items')).toBe(0);
    expect(count('SELECT count(*) FROM items')).toBe(1);
    expect(count(`SELECT count(*) FROM fts_words_${pk} WHERE fts_words_${pk} MATCH 'zebrafinch'`)).toBe(0);
    expect(count('SELECT count(*) FROM episodes')).toBe(2);
  });

  it('refuses a second item of the same media id without replace, and leaves nothing of it', async () => {
    await expect(store('nightingale', false)).rejects.toThrow(/already in the collection/);
    await s.vidx.searchIndex.idle();
    expect(count('SELECT count(*) FROM staged_items')).toBe(0);
    expect(count('SELECT count(*) FROM items')).toBe(1);
    expect(count(`SELECT count(*) FROM fts_words_${pk} WHERE fts_words_${pk} MATCH 'nightingale'`)).toBe(0);
  });

  it('removes at the next start what a stop left of a staged write', async () => {
    const first = await startTestServer({ listen: false, queryEmbedder: null, slicing: { oneTransactionMs: 0, afterSlice: g.afterSlice } });
    await first.call('POST', '/collections', { json: { collection_id: 'birds', name: 'Birds' } });
    const firstPk = first.vidx.store.collections.findById('birds')!.pk;
    g.shut();
    const cut = first.vidx.searchIndex
      .storeItemInSlices(firstPk, fixtureItem(first.vidx, first.dataDir, 'birds', 'dusk'), analysisSaying('owl'), { replace: false })
      .catch((err: Error) => err);
    await g.reached();
    await first.close({ keepData: true });
    g.open();
    expect(await cut).toBeInstanceOf(Error);
    const again = await startTestServer({ listen: false, queryEmbedder: null, dataDir: first.dataDir });
    try {
      await again.vidx.searchIndex.idle();
      const n = (sql: string) => again.vidx.store.db.prepare(sql).pluck().get() as number;
      expect(n('SELECT count(*) FROM staged_items')).toBe(0);
      expect(n('SELECT count(*) FROM items')).toBe(0);
      expect(n('SELECT count(*) FROM episodes')).toBe(0);
      expect(n('SELECT count(*) FROM vectors')).toBe(0);
      expect(n(`SELECT count(*) FROM fts_words_${firstPk} WHERE fts_words_${firstPk} MATCH 'owl'`)).toBe(0);
    } finally {
      await again.close();
    }
  });
});
