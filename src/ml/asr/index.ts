/** Speech recognition: Whisper over VAD speech segments, absolute timestamps. */
export * from './chunking.js';
export * from './whisper.js';
