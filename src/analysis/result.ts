import type { MediaAnalysis } from './types.js';

const secs = (s: number) => ({ seconds: Math.round(s * 1000) / 1000 });

/**
 * The output of a completed /analyze task (SPEC 2.5): one object per transcript segment, visual entry and
 * episode. Thumbnails are data-dir paths here; the task presenter turns them into signed links.
 * @example
 * const result = analyzeResult(analysis, false);
 * result.episodic_summary[0].start; // { seconds: 0 }
 */
export function analyzeResult(a: MediaAnalysis, reused = false) {
  return {
    video_duration: a.duration,
    video_summary: a.summary,
    audio_summary: a.transcript.map((t, i) => ({ segment: { start: secs(t.start), end: secs(t.end), segment_id: i }, text: t.text })),
    visual_summary: a.visual.map((v, i) => ({ segment: { start: secs(v.start), end: secs(v.end), segment_id: i }, text: v.summary })),
    episodic_summary: a.episodes.map((e) => ({
      episode_id: e.index,
      start: secs(e.start),
      end: secs(e.end),
      audio: e.audio.map((t) => ({ start: t.start, end: t.end, text: t.text })),
      visual: e.visual.map((v) => ({ start: v.start, end: v.end, summary: v.summary })),
      faces: null,
      summary: e.summary,
      thumbnail: e.thumbnail,
    })),
    media_type: a.type,
    title: a.title,
    language: a.language,
    transcript_source: a.transcriptSource,
    subtitle_languages: a.subtitleLanguages ?? [],
    // The transcript is audio_summary; the media's other subtitle languages follow as lines of their own.
    subtitle_tracks: (a.subtitleTracks ?? []).map((t) => ({ language: t.language, source: t.source, lines: t.segments.map((s) => ({ start: s.start, end: s.end, text: s.text })) })),
    warnings: a.warnings,
    reused,
  };
}

/** The SPEC 2.5 object a completed /analyze task returns. */
export type AnalyzeResult = ReturnType<typeof analyzeResult>;
