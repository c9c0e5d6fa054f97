import { z } from 'zod';
import { clock } from '../../tools/clock.js';
import { defineTool } from '../tool.js';
import { readAnalysis, type ItemAnalysis } from '../transcript.js';
import { collection, DEFAULT_MAX_CHARS, isPublic, maxChars, mediaId } from './fields.js';

const cut = (s: string, n: number) => (s.length > n ? `${s.slice(0, n - 1)}…` : s);

function episodeView(e: ItemAnalysis['episodes'][number]) {
  return {
    episode_id: e.episode_id,
    start: e.start,
    end: e.end,
    time: `${clock(e.start)}–${clock(e.end)}`,
    summary: cut(e.summary, 600),
    on_screen_text: e.on_screen_text.slice(0, 10).map((t) => cut(t, 200)),
    tags: e.tags.slice(0, 10),
  };
}

/**
 * `get_analysis`: the stored summaries and episodes of an indexed video, a page at a time.
 * @example
 * await client.callTool({ name: 'get_analysis', arguments: { collection: 'demo', media_id: 'cup-final', episode_offset: 20 } });
 */
export const getAnalysis = defineTool({
  name: 'get_analysis',
  title: 'Summary and episodes of a video',
  description:
    'Returns what an indexed video is about: its summary, duration and its episodes (time range, summary, on-screen text, visual tags). ' +
    'Use it to summarise a video or to see what happens around a moment found by search. Long videos come a page of episodes at a time: ' +
    'when the answer has next_episode, call again with episode_offset set to it. For the words spoken, use get_transcript ' +
    '(subtitle_languages lists the languages it can give, the transcript\'s first).',
  input: {
    collection,
    media_id: mediaId,
    episode_offset: z.number().int().min(0).optional().describe('First episode to return (default 0)'),
    max_chars: maxChars,
    public: isPublic,
  },
  output: {
    media_id: z.string(),
    video_summary: z.string(),
    video_duration: z.number().describe('Seconds'),
    subtitle_languages: z.array(z.string()),
    episodes_total: z.number(),
    episode_offset: z.number(),
    episodes: z.array(
      z.object({
        episode_id: z.number(),
        start: z.number(),
        end: z.number(),
        time: z.string().describe('m:ss–m:ss'),
        summary: z.string(),
        on_screen_text: z.array(z.string()),
        tags: z.array(z.string()),
      }),
    ),
    next_episode: z.number().nullable().describe('The episode_offset that continues; null at the end'),
    note: z.string().optional(),
  },
  annotations: { readOnlyHint: true },
  async run(args, { api }) {
    const a = await readAnalysis(api, args.collection, args.media_id, args.public);
    const budget = args.max_chars ?? DEFAULT_MAX_CHARS;
    const offset = args.episode_offset ?? 0;
    const head = { media_id: args.media_id, video_summary: cut(a.video_summary, Math.floor(budget / 3)), video_duration: a.video_duration, subtitle_languages: a.subtitle_languages, episodes_total: a.episodes.length };
    let used = JSON.stringify(head).length;
    const episodes: ReturnType<typeof episodeView>[] = [];
    let next: number | null = null;
    for (let i = offset; i < a.episodes.length; i++) {
      const view = episodeView(a.episodes[i]);
      const size = JSON.stringify(view).length + 1;
      if (episodes.length > 0 && used + size > budget) {
        next = i;
        break;
      }
      episodes.push(view);
      used += size;
    }
    return { ...head, episode_offset: offset, episodes, next_episode: next, ...(next === null ? {} : { note: `More episodes: call get_analysis again with episode_offset ${next}.` }) };
  },
});
