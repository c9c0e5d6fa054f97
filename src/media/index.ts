/** The media layer's public surface: probing, decoding, frames, subtitles and input resolution. */
export { MediaError, SourceError, type MediaErrorCode, type SourceErrorCode } from './errors.js';
export { probeMedia, type ProbeOptions, type MediaProbe, type VideoInfo, type AudioInfo, type SubtitleStreamInfo } from './probe.js';
export { displaySize } from './probe-json.js';
export { spawnTool, runTool, fileUrl, ToolError, type Tool, type ToolOptions, type ToolProcess } from './run.js';
export { decodeAudio, PCM_SAMPLE_RATE, type DecodeAudioOptions } from './audio.js';
export { detectScenes, type SceneCut, type Scene, type DetectScenesOptions } from './scenes.js';
export { extractFrames, extractFrame, planExtraction, type VideoFrame, type ExtractFramesOptions } from './frames.js';
export { thumbnailJpeg, writeJpeg, writeThumbnail, type ThumbnailOptions } from './thumbnails.js';
export { parseSubtitles, readSubtitleFile, decodeSubtitleBytes, type SubtitleCue, type SubtitleFormat } from './subtitles.js';
export { chooseSidecar, findSidecarSubtitles, listSidecarSubtitles, type SidecarSubtitle } from './sidecar.js';
export { extractEmbeddedSubtitles, extractSubtitleStreams, chooseSubtitleStream, textSubtitleStreams } from './embedded-subtitles.js';
export { normalizeLanguage, sameLanguage } from './languages.js';
export { resolveSource, type VideoInput, type ResolvedSource, type SourceOptions } from './sources.js';
export { resolveInsideRoots } from './source-path.js';
export { egressPolicy, literalRefusal, parseAllowList, onAllowList, isLoopbackHost, addressAllowed, allowedAddresses, pinnedLookup, systemResolver, unreachable, type EgressPolicy, type AllowList, type Resolver } from './egress.js';
export { FileAccess, type FileAccessSettings, isInside } from './file-access.js';
export { primeSafeDemuxers } from './input-guard.js';
