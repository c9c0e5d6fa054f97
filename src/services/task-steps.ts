import { ANALYSIS_STAGES } from '../analysis/stages.js';

/** The item a task that goes through many (a folder scan, a re-index) is on. */
export interface StageItem {
  /** 1-based. */
  n: number;
  total: number;
  /** The file or item title, as the user knows it. */
  name: string;
}

/** A task's stage as a code a page translates, with the item it is on. */
export interface TaskStep {
  code: string;
  item?: StageItem;
}

/**
 * The words tasks report their stage in, and the codes they are sent as: an analysis's stages from the
 * pipeline's own table (analysis/stages.ts), the tasks' own here. Anything else is sent as `other` (the
 * English `stage` text is always there too).
 */
const CODES: Record<string, string> = {
  ...Object.fromEntries(Object.entries(ANALYSIS_STAGES).map(([code, words]) => [words, code])),
  queued: 'queued', starting: 'starting', 'queued for retry': 'queued', 'requeued after restart': 'queued', 'interrupted by shutdown': 'queued',
  fetching: 'fetching', opening: 'opening', storing: 'storing',
  'counting files': 'counting_files', 'checking files': 'checking_files', 'waiting for files': 'waiting_for_files',
  'removing deleted files': 'removing_deleted_files', downloading: 'downloading', indexed: 'indexed', failed: 'failed',
  'waiting for a worker': 'waiting_for_worker',
};

/**
 * The stage as the API's `stage` text ("3/12 beach.mp4: on-screen text") and as a translatable step.
 * @example
 * describeStage('on-screen text', { n: 3, total: 12, name: 'beach.mp4' });
 * // { text: '3/12 beach.mp4: on-screen text', step: { code: 'on_screen_text', item: { n: 3, total: 12, name: 'beach.mp4' } } }
 */
export function describeStage(stage: string | null, item: StageItem | null): { text: string | null; step: TaskStep | null } {
  if (stage === null) return { text: null, step: null };
  const step: TaskStep = { code: CODES[stage] ?? 'other', ...(item ? { item } : {}) };
  return { text: item ? `${item.n}/${item.total} ${item.name}: ${stage}` : stage, step };
}
