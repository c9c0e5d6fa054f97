/**
 * How an analysis warning begins when speech was found but no speech model could transcribe it. The warning
 * is stored with the item's analysis; searches read it back to say that a collection holds speech that words
 * cannot find (the `speech_missing` notice), so the text is shared rather than written twice.
 * @example
 * warnings.push(`${SPEECH_NOT_TRANSCRIBED}: the speech recognition model is missing`);
 */
export const SPEECH_NOT_TRANSCRIBED = 'speech found but not transcribed';
