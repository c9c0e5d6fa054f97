import type { WarningKey } from './warnings.js';

/**
 * The warning an analysis leaves when speech was found but no speech model could transcribe it. The warning
 * is stored with the item's analysis; searches read it back to say that a collection holds speech that words
 * cannot find (the `speech_missing` notice), so its key is shared rather than written twice.
 * @example
 * warnings.push(warning(SPEECH_NOT_TRANSCRIBED_KEY, { reason: 'missing' }));
 */
export const SPEECH_NOT_TRANSCRIBED_KEY = 'analysis_speech_not_transcribed' satisfies WarningKey;

/**
 * How that warning began when analyses kept their warnings as English words (items stored before warnings
 * were keyed still hold it so).
 * @example
 * store.warnings.some(collectionPk, null, { key: SPEECH_NOT_TRANSCRIBED_KEY, prefix: SPEECH_NOT_TRANSCRIBED }, 3);
 */
export const SPEECH_NOT_TRANSCRIBED = 'speech found but not transcribed';
