import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect } from 'vitest';
import { conversation, srtOf, type PlacedTurn, type Turn, type Voice } from './conversation.js';
import { settledTask, type TestServer } from './server.js';

/**
 * An espeak-ng talk written to `<name>.m4a` in the server's media folder, its words as `<name>.srt` beside
 * it (no speech model in tests), indexed as `name` into `collection` and waited for.
 * @example
 * await indexTalk(s, 'home', 'boat', [DAD, ANNA], BOAT_TALK);
 */
export async function indexTalk(s: TestServer, collection: string, name: string, voices: readonly Voice[], turns: readonly Turn[]): Promise<PlacedTurn[]> {
  const placed = await conversation(join(s.mediaDir, `${name}.m4a`), voices, turns);
  await writeFile(join(s.mediaDir, `${name}.srt`), srtOf(placed));
  const r = await s.call('POST', '/index', { json: { collection, video: { path: join(s.mediaDir, `${name}.m4a`), media_id: name } } });
  expect(r.status, JSON.stringify(r.body)).toBe(202);
  const task = await settledTask(s, r.body.task_id as string, 120_000);
  expect(task.status, JSON.stringify(task.error)).toBe('completed');
  return placed;
}
