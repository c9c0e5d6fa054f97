import type { z } from '@hono/zod-openapi';
import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { errorResponse } from '../../src/http/errors.js';
import { AnalysisQuery } from '../../src/http/schemas/collections.js';
import { VideoInput } from '../../src/http/schemas/submissions.js';
import { validationProblem } from '../../src/http/validation.js';
import { msg } from '../../src/messages/index.js';
import { fieldProblem, notFound } from '../../src/services/errors.js';

/** An app whose routes throw what a service or a schema would, answered by the one error handler. */
function app() {
  const a = new Hono();
  a.onError(errorResponse(() => {}));
  const invalid = (schema: z.ZodType, value: unknown) => {
    const r = schema.safeParse(value);
    if (!r.success) throw validationProblem(r.error.issues);
    return new Response('ok');
  };
  a.get('/none', () => invalid(VideoInput, {}));
  a.get('/ftp', () => invalid(VideoInput, { url: 'ftp://host/x' }));
  a.get('/tag', () => invalid(AnalysisQuery, { language: 'not a tag' }));
  a.get('/missing', () => {
    throw fieldProblem('not_found', 'language', msg('language_has_lines', { asked: 'fr', languages: 'de, en' }));
  });
  a.get('/plain', () => {
    throw fieldProblem('invalid', 'url', 'refused by a layer that words its reasons in English');
  });
  a.get('/task', () => {
    throw notFound('task', 't1');
  });
  return a;
}

const de = { 'accept-language': 'de' };
const body = async (r: Response) => (await r.json()) as { detail: string; code: string; errors?: { field: string; message: string }[] };

/** Issue 33.7: the error handler says keyed messages in German from the German table, keeping the answer's shape. */
describe('errors said from their message keys', () => {
  it('says vidx’s own schema rules in German by key', async () => {
    const a = app();
    expect((await body(await a.request('/none', { headers: de }))).errors).toEqual([{ field: '(body)', message: 'genau eines von path, url oder content ist nötig' }]);
    expect((await body(await a.request('/none'))).errors).toEqual([{ field: '(body)', message: 'exactly one of path, url or content is required' }]);
    expect((await body(await a.request('/ftp', { headers: de }))).errors).toEqual([{ field: 'url', message: 'muss eine absolute http- oder https-URL sein' }]);
    expect((await body(await a.request('/tag', { headers: de }))).errors).toEqual([{ field: 'language', message: 'muss eine Sprachangabe wie de, de-DE oder ger sein' }]);
  });

  it('says a field problem and its detail in German, and says an English-only reason as given', async () => {
    const a = app();
    const missing = await a.request('/missing', { headers: de });
    expect(missing.status).toBe(404);
    expect(await body(missing)).toMatchObject({
      detail: 'language: Kein Transkript und keine Untertitel in „fr“: der Eintrag hat Zeilen in de, en',
      code: 'not_found',
      errors: [{ field: 'language', message: 'Kein Transkript und keine Untertitel in „fr“: der Eintrag hat Zeilen in de, en' }],
    });
    expect((await body(await a.request('/missing'))).detail).toBe('language: no transcript or subtitles in "fr": the item has lines in de, en');
    // A reason a lower layer gives only in English is said as given, behind the German field name.
    expect((await body(await a.request('/plain', { headers: de }))).detail).toBe('url: refused by a layer that words its reasons in English');
    const task = await body(await a.request('/task', { headers: de }));
    expect(task).toEqual({ detail: 'Aufgabe „t1“ nicht gefunden', code: 'not_found' });
  });
});
