import { describe, expect, expectTypeOf, it } from 'vitest';
import { type Catalogue, CATALOGUES, de, en, type MessageKey, type MessageParams, msg, render } from '../../src/messages/index.js';
import { Problem, notFound } from '../../src/services/errors.js';

/**
 * The names a table's entry reads from its parameters: it is called with a recording stand-in whose every
 * field is a string, so both branches of an optional parameter read their names.
 */
function namesRead(entry: (p: never) => string): Set<string> {
  const seen = new Set<string>();
  const params = new Proxy(
    {},
    {
      get: (_, name) => {
        if (typeof name === 'string') seen.add(name);
        return 'x';
      },
    },
  );
  entry(params as never);
  return seen;
}

/** Where German leaves out a parameter on purpose (today's wording names less than the English). */
const GERMAN_LEAVES_OUT: Partial<Record<MessageKey, string[]>> = {
  folder_overlaps: ['other_id'],
  task_retry_not_failed: ['status'],
  task_retry_collection_deleted: ['id'],
  body_not_json: ['reason'],
};

/** Issue 33.7: messages are keys with parameters, said in English and German from one table each. */
describe('the message tables', () => {
  it('type German from English: the same keys, each with the same parameters', () => {
    expectTypeOf(de).toEqualTypeOf<Catalogue>();
    expectTypeOf<Parameters<(typeof de)['not_found']>[0]>().toEqualTypeOf<MessageParams<'not_found'>>();
    expectTypeOf<Parameters<(typeof de)['folder_overlaps']>[0]>().toEqualTypeOf<{ path: string; other_id: string; other_path: string; collection: string }>();
    // @ts-expect-error: a German table without a key does not compile
    const missing: Catalogue = { ...de, not_found: undefined };
    expect(missing).toBeDefined();
  });

  it('has a German entry for every English key, reading only the English parameters', () => {
    expect(Object.keys(de).sort()).toEqual(Object.keys(en).sort());
    for (const key of Object.keys(en) as MessageKey[]) {
      const english = namesRead(en[key] as (p: never) => string);
      const german = namesRead(de[key] as (p: never) => string);
      expect([...german].filter((n) => !english.has(n)), key).toEqual([]);
      const left = [...english].filter((n) => !german.has(n));
      expect(left, key).toEqual(GERMAN_LEAVES_OUT[key] ?? []);
    }
  });

  it('says a message in both languages from its key, so rewording the English keeps the German', () => {
    const m = msg('not_found', { what: 'collection', id: 'urlaub' });
    expect(render(m, 'en')).toBe('collection "urlaub" not found');
    expect(render(m, 'de')).toBe('Sammlung „urlaub“ nicht gefunden');
    // A reworded English text: the German is made from the key, not from the English words.
    const reworded = { ...CATALOGUES.en, not_found: (p: MessageParams<'not_found'>) => `there is no ${p.what} called ${p.id}` };
    expect(reworded.not_found(m.params)).toBe('there is no collection called urlaub');
    expect(render(m, 'de')).toBe('Sammlung „urlaub“ nicht gefunden');
  });

  it('says a message given as a parameter in the language of the whole', () => {
    const m = msg('field_problem', { field: 'path', reason: msg('path_missing', { path: '/srv/x' }) });
    expect(render(m, 'en')).toBe('path: path "/srv/x" does not exist');
    expect(render(m, 'de')).toBe('Pfad: Den Pfad „/srv/x“ gibt es nicht');
  });

  it('keeps the English text as a problem’s message, with its key beside it', () => {
    const p = notFound('task', 't1');
    expect(p.message).toBe('task "t1" not found');
    expect(p.text).toEqual({ key: 'not_found', params: { what: 'task', id: 't1' } });
    const f = new Problem('invalid', msg('form_body_required'), [{ field: 'body', message: msg('required') }]);
    expect(f.message).toBe('body: the form field "body" is required');
    expect(f.fields).toEqual([{ field: 'body', message: 'required', text: { key: 'required', params: undefined } }]);
  });
});
