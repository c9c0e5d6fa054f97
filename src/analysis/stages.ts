/**
 * The stages an analysis reports its progress in: a code each (what a task's `step.code` says, and the page's
 * `stage_<code>` words) and the English words of the task's `stage` text. A step of the pipeline names the
 * codes it reports (steps/); services/task-steps.ts reads the same table, so a new stage is one line here.
 */
export const ANALYSIS_STAGES = {
  probing: 'probing',
  transcript: 'transcript',
  voice_activity: 'voice activity',
  speech_recognition: 'speech recognition',
  shot_detection: 'shot detection',
  on_screen_text: 'on-screen text',
  visual_tags: 'visual tags',
  decoding_image: 'decoding image',
  sound: 'sound',
  speakers: 'speakers',
  faces: 'faces',
  episodes: 'episodes',
  summaries: 'summaries',
  thumbnails: 'thumbnails',
  text_vectors: 'text vectors',
  done: 'done',
} as const;

/** A stage of an analysis. */
export type StageCode = keyof typeof ANALYSIS_STAGES;

/**
 * The English words of a stage, as a task's `stage` text says it.
 * @example
 * stageText('on_screen_text'); // 'on-screen text'
 */
export function stageText(code: StageCode): string {
  return ANALYSIS_STAGES[code];
}
