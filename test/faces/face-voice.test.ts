/**
 * Issue 45: a named face on screen again and again while an unnamed voice speaks is offered as one person,
 * never linked by vidx itself; merging the two links them. Real videos (the skimage astronaut and cameraman
 * panned across the frame) with an espeak-ng talk as their sound, BlazeFace and the SFace stand-in, voices
 * with no model, a real server on 127.0.0.1.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FakeHub } from '../support/fake-hub.js';
import { conversation, type Turn } from '../support/conversation.js';
import { buildWeb } from '../../scripts/build-web.js';
import { keyedPage, launchBrowser, screenshot, unlabelled } from '../support/browser.js';
import { callJson, mcpClient } from '../mcp/clients.js';
import { ADMIN_KEY, settledTask, startTestServer, type TestServer } from '../support/server.js';
import { facesSetup } from './setup.js';
import { makeShotsVideo } from './videos.js';

const run = promisify(execFile);
const UI = { timeout: 15_000, interval: 100 };
const HER = { voice: 'en+f2', pitch: 70 };
const HIM = { voice: 'en+m3', pitch: 35 };

interface Person { person_id: string; name: string | null; face_count: number; voice_count: number }

describe('a named face and the voice heard while it is on screen', () => {
  let tmp: string;
  let hub: FakeHub;
  let s: TestServer;

  /** A video: she is on screen while she speaks, then he is while he answers. */
  async function talk(media: string, name: string, turns: readonly Turn[]): Promise<string> {
    const sound = join(media, `${name}.m4a`);
    const placed = await conversation(sound, [HER, HIM], turns, 0.6);
    const cut = (placed[0]!.end + placed[1]!.start) / 2;
    const total = placed.at(-1)!.end + 0.5;
    const video = await makeShotsVideo(media, `${name}-picture.mp4`, [
      { file: 'astronaut.png', scale: 0.9, x0: 100, x1: 200, y: 120, seconds: cut },
      { file: 'camera.png', scale: 1, x0: 600, x1: 520, y: 100, seconds: total - cut },
    ]);
    const out = join(media, `${name}.mp4`);
    await run('ffmpeg', ['-v', 'error', '-y', '-i', video, '-i', sound, '-map', '0:v', '-map', '1:a', '-c:v', 'copy', '-c:a', 'aac', '-shortest', out]);
    return out;
  }

  const index = async (path: string, media_id: string) => {
    const r = await s.call('POST', '/index', { json: { collection: 'family', video: { path, media_id } } });
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    const t = await settledTask(s, r.body.task_id as string, 120_000);
    expect(t.status, t.error?.message).toBe('completed');
  };
  const people = async () => (await s.call('GET', '/collections/family/people')).body as { people: Person[]; suggestions: { voice_person_id: string; face_person_id: string; name: string; recordings: number; share: number }[] };

  beforeAll(async () => {
    await buildWeb({ ifStale: true });
    const f = await facesSetup('face-voice-');
    ({ tmp, hub } = f);
    const first = await talk(f.media, 'launch', [
      { speaker: 1, text: 'We are ready for the launch. The crew is on board and the weather is fine.' },
      { speaker: 2, text: 'Good luck up there. We will film everything from the ground.' },
    ]);
    const second = await talk(f.media, 'return', [
      { speaker: 1, text: 'The landing was smooth and the whole crew is back home safely.' },
      { speaker: 2, text: 'Welcome back. The pictures from the launch turned out very well.' },
    ]);
    s = await startTestServer({ dataDir: f.dataDir, env: f.env });
    expect((await s.call('POST', '/collections', { json: { collection_id: 'family', name: 'Family' } })).status).toBe(201);
    expect((await s.call('PUT', '/collections/family/faces', { json: { enabled: true } })).status).toBe(200);
    expect((await s.call('PUT', '/collections/family/voices', { json: { enabled: true } })).status).toBe(200);
    await index(first, 'launch');
    await index(second, 'return');
  }, 240_000);

  afterAll(async () => {
    await s?.close();
    await hub?.close();
    if (tmp) rmSync(tmp, { recursive: true, force: true });
  });

  it('suggests the voice heard while the named face is on screen, and links them only when merged', async () => {
    const before = await people();
    // Two faces, two voices: four people, none linked.
    expect(before.people.filter((p) => p.face_count > 0 && p.voice_count > 0)).toEqual([]);
    // Nothing is offered before the face has a name.
    expect(before.suggestions).toEqual([]);
    const analysis = (await s.call('GET', '/collections/family/items/launch/analysis')).body;
    const faceAt = (t: number) => analysis.episodes.flatMap((e: { faces: { person_id: string; start: number; end: number }[] }) => e.faces).find((f: { start: number; end: number }) => f.start <= t && t <= f.end)?.person_id as string;
    const herVoice = analysis.speakers.find((t: { speaker: number }) => t.speaker === 1).person_id as string;
    const her = faceAt(1);
    expect(her).toBeTruthy();
    expect((await s.call('PUT', `/collections/family/people/${her}`, { json: { name: 'Eileen' } })).status).toBe(200);

    const offered = (await people()).suggestions;
    expect(offered).toEqual([{ voice_person_id: herVoice, face_person_id: her, name: 'Eileen', recordings: 2, share: expect.any(Number) }]);
    expect(offered[0]!.share).toBeGreaterThanOrEqual(0.5);
    // Offered only: the voice is still a person of its own.
    expect((await people()).people.find((p) => p.person_id === herVoice)).toMatchObject({ face_count: 0, voice_count: 2 });
    // An agent sees the offer, told to ask.
    const agent = await mcpClient('http', s.url, ADMIN_KEY);
    try {
      expect((await callJson(agent, 'people', { collection: 'family' })).suggestions).toEqual([{ voice_person_id: herVoice, face_person_id: her, name: 'Eileen', recordings: 2 }]);
    } finally {
      await agent.close();
    }

    // The page offers it, in German too, and links them on "Yes".
    const browser = await launchBrowser();
    try {
      for (const [lang, width] of [['de', 360], ['en', 1280]] as const) {
        const w = await keyedPage(browser, { width, height: 800 }, ADMIN_KEY);
        if (lang === 'de') await w.context.addInitScript(() => localStorage.setItem('vidx.lang', 'de'));
        await w.page.goto(`${s.url}/#/c/family/people`);
        const offer = w.page.locator(`[data-suggestion="${herVoice}"]`);
        await expect.poll(() => offer.locator('strong').textContent(), UI).toBe(lang === 'de' ? 'Ist diese Stimme Eileen?' : 'Is this voice Eileen?');
        await screenshot(w.page, `people-link-suggestion-${lang}-${width}`);
        expect(await unlabelled(w.page)).toEqual([]);
        if (lang === 'en') {
          await offer.getByRole('button', { name: 'Yes, the same person' }).click();
          await expect.poll(() => offer.count(), UI).toBe(0);
        }
        expect(w.errors).toEqual([]);
        await w.context.close();
      }
    } finally {
      await browser.close();
    }
    const linked = (await people()).people.find((p) => p.person_id === her)!;
    expect(linked).toMatchObject({ name: 'Eileen', voice_count: 2 });
    expect(linked.face_count).toBeGreaterThan(0);
    expect((await people()).people.find((p) => p.person_id === herVoice)).toBeUndefined();
    expect((await people()).suggestions).toEqual([]);
    // The transcript now names her.
    const named = (await s.call('GET', '/collections/family/items/return/analysis')).body;
    expect(named.speakers.find((t: { speaker: number }) => t.speaker === 1)).toMatchObject({ label: 'Eileen', person_id: her });
  });
});
