import { z } from 'zod';
import { defineTool } from '../tool.js';
import { readAnalysis, transcriptOf, transcriptPage } from '../transcript.js';
import { collection, DEFAULT_MAX_CHARS, isPublic, maxChars, mediaId } from './fields.js';

/**
 * `get_transcript`: the timed transcript of an indexed video, or of a stretch of it.
 * @example
 * await client.callTool({ name: 'get_transcript', arguments: { collection: 'demo', media_id: 'cup-final', from_seconds: 30, to_seconds: 90 } });
 */
export const getTranscript = defineTool({
  name: 'get_transcript',
  title: 'Transcript of a video',
  description:
    'Returns what is said in an indexed video as timed lines "[m:ss–m:ss] text", optionally only between from_seconds and to_seconds. ' +
    'Use it to quote or read around a moment found by search (e.g. from_seconds = start_time - 30). ' +
    'A long transcript is cut to max_chars; the last line then says which from_seconds continues it. ' +
    'A video with subtitles in several languages (get_analysis lists them as subtitle_languages) gives another language with language, e.g. "de".',
  input: {
    collection,
    media_id: mediaId,
    from_seconds: z.number().min(0).optional().describe('Start of the time range in seconds (default 0)'),
    to_seconds: z.number().min(0).optional().describe('End of the time range in seconds (default: the end)'),
    // The server checks the tag (and names the languages the video has when it has none in it).
    language: z
      .string()
      .min(2)
      .max(35)
      .optional()
      .describe('A subtitle language of the video (en, de, fr, …; see subtitle_languages of get_analysis). Default: the transcript'),
    max_chars: maxChars,
    public: isPublic,
  },
  // Timed lines, not JSON: an agent reads and quotes them as they are.
  output: null,
  annotations: { readOnlyHint: true },
  async run(args, { api }) {
    if (args.to_seconds !== undefined && args.from_seconds !== undefined && args.to_seconds <= args.from_seconds) {
      throw new Error('to_seconds must be greater than from_seconds');
    }
    const a = await readAnalysis(api, args.collection, args.media_id, args.public, args.language);
    const page = transcriptPage(transcriptOf(a), { from: args.from_seconds, to: args.to_seconds, maxChars: args.max_chars ?? DEFAULT_MAX_CHARS });
    if (page.total === 0) return `No speech transcript for ${args.media_id} in this range (the video may have no speech or no subtitles, or no speech model was installed when it was indexed).`;
    const more = page.next === null ? [] : [`… cut at max_chars: call get_transcript again with from_seconds ${page.next} for the rest.`];
    // Which language the lines are in, when the video has more than one.
    const head = a.subtitle_languages.length > 1 ? [`Language: ${a.transcript_language ?? 'unknown'} (also: ${a.subtitle_languages.filter((l) => l !== a.transcript_language).join(', ')})`] : [];
    return [...head, ...page.lines, ...more].join('\n');
  },
});
