import { relative } from 'node:path';
import type { MediaTools } from '../../media/binaries.js';
import { resolveSource, type EgressPolicy, type ResolvedSource, type Resolver } from '../../media/index.js';
import type { ModelRuntime } from '../../ml/runtime.js';
import { uploadPath, type StoredVideo, type TaskUpload } from '../submissions.js';
import type { AnalysisCache } from '../../analysis/cache.js';
import { fingerprintFile } from '../../analysis/fingerprint.js';
import type { AnalysisRunner } from './runner.js';
import { probeStillImage } from '../../media/still-image.js';
import { sourceName } from '../../media/source-name.js';
import { readContentCapture, type ContentCapture } from '../../media/capture-info.js';
import { stat } from 'node:fs/promises';
import type { MediaAnalysis } from '../../analysis/types.js';
import type { Lang } from '../../messages/index.js';

/** Where sources may come from and where temporary files go. */
export interface AnalyzerOptions {
  dataDir: string;
  mediaRoots: string[];
  tempDir: string;
  uploadsDir: string;
  /** What a task's URL may reach, by the task owner's key id (admins may reach loopback). */
  egressFor: (owner: string) => EgressPolicy;
  /** Default: the system resolver. */
  resolver?: Resolver;
}

/** A finished analysis and where its files live (thumbnails are relative to the data dir). */
export interface AnalyzedMedia {
  analysis: MediaAnalysis;
  /** The cache folder holding analysis.json and the thumbnails, relative to the data dir. */
  folder: string;
  /** Where the media came from, for the item's `src`. */
  origin: ResolvedSource['origin'];
  src: string | null;
  /** The real path of a `path` source (it stays after the task); null for URLs and uploads. */
  localPath: string | null;
  /** What the item is called when the caller gives no title: the file's or page's name (see sourceName). */
  sourceName: string | null;
  /** Bytes of the media file. */
  size: number;
  /** When the upload's or download's own content says it was recorded (path sources are read by the indexer). */
  capture: ContentCapture | null;
  reused: boolean;
}

/** Who asked, how to stop and report, and what the caller already knows of the content. */
export interface AnalyzeContext {
  /** The task the analysis is for (a queued job is named after it). */
  id: string;
  owner: string;
  signal: AbortSignal;
  progress: (fraction: number, stage: string) => void;
  /** Whether to look for faces (the collection's setting). */
  faces?: boolean;
  /** Whether to make voiceprints (the collection's voices setting). */
  voices?: boolean;
  /** The whole file's hash where the caller computed it (folder scans): the cache key's content then. */
  contentHash?: string;
}

/**
 * Fetches a task's media (path, URL or upload), analyses it once per set of inputs, and cleans
 * up the temporary files whatever happens.
 * @example
 * const { analysis } = await analyzer.run(video, upload, 'en', { signal, progress });
 */
export class Analyzer {
  /** `runner` is where analyses run: this server's threads (or this thread), or the job queue's workers. */
  constructor(
    private readonly models: ModelRuntime,
    private readonly cache: AnalysisCache,
    private readonly opts: AnalyzerOptions,
    private readonly runner: AnalysisRunner,
  ) {}

  /** The server's external tools (what reads capture dates and fetches pages uses them too). */
  get tools(): MediaTools {
    return this.models.tools;
  }

  async run(
    video: StoredVideo,
    upload: TaskUpload | null,
    language: Lang | null,
    ctx: AnalyzeContext,
  ): Promise<AnalyzedMedia> {
    // Only a URL is fetched; a path or an upload is a file on this machine, opened where it lies.
    ctx.progress(0, video.url && !upload ? 'fetching' : 'opening');
    try {
      return await this.analyze(video, upload, language, ctx);
    } catch (e) {
      // Messages about an upload name it as the caller did, not by the name it has on the server.
      if (upload && e instanceof Error && 'stored' in upload) e.message = e.message.split(upload.stored).join(upload.filename);
      throw e;
    }
  }

  private async analyze(
    video: StoredVideo,
    upload: TaskUpload | null,
    language: Lang | null,
    ctx: AnalyzeContext,
  ): Promise<AnalyzedMedia> {
    const source = await resolveSource(
      { path: video.path, url: video.url, content: upload ? uploadPath(this.opts.uploadsDir, upload) : null },
      {
        mediaRoots: this.opts.mediaRoots,
        excludeDirs: [this.opts.dataDir],
        tempDir: this.opts.tempDir,
        uploadDir: this.opts.uploadsDir,
        // The upload stays until the task succeeds (or is deleted), so a failed task can be retried.
        keepUpload: true,
        signal: ctx.signal,
        tools: this.models.tools,
        egress: this.opts.egressFor(ctx.owner),
        ...(this.opts.resolver ? { resolver: this.opts.resolver } : {}),
      },
    );
    try {
      const sourcePath = source.origin === 'path' ? source.file : null;
      const about = {
        sourceName: sourceName({ fileName: upload?.filename ?? video.path, url: video.url, pageTitle: source.pageTitle }),
        size: (await stat(source.file)).size,
      };
      // Every input is in the key: a copy of a file with other subtitles beside it, another title or
      // another installed model is another analysis (and nothing leaks between requests).
      const key = await this.cache.key({
        content: ctx.contentHash ?? (await fingerprintFile(this.models.tools.files, source.file)),
        sourcePath,
        language,
        // Faces on for the collection is one more input (the face stage runs only then).
        models: { ...this.models.capabilities(), ...(ctx.faces ? { faces: { available: true } } : {}), ...(ctx.voices ? { voices: { available: true } } : {}) },
        title: video.title,
        metadata: video.additional_metadata,
      }, this.models.tools.files);
      const folder = relative(this.opts.dataDir, this.cache.folder(key));
      const src = source.origin === 'url' ? (source.src ?? null) : null;
      const localPath = source.origin === 'path' ? source.file : null;
      // An upload or a download is gone after the task: what its content says of its recording date is read now.
      const captureOf = async (type: MediaAnalysis['type']) => (localPath ? null : readContentCapture(source.file, type, this.models.tools, ctx.signal).catch(() => null));
      const cached = this.cache.load(key);
      if (cached) return { analysis: cached, folder, origin: source.origin, src, localPath, ...about, capture: await captureOf(cached.type), reused: true };
      // Still pictures have their own short path; everything else is audio or video.
      const kind = (await probeStillImage(this.models.tools.files, source.file)) ? 'image' : 'media';
      const input = { file: source.file, sourcePath, title: video.title, metadata: video.additional_metadata, language, thumbnailDir: this.cache.folder(key), faces: ctx.faces ?? false, voices: ctx.voices ?? false };
      const { analysis, shared } = await this.runner.run(
        { kind, input, key, task: ctx.id, owner: ctx.owner },
        { signal: ctx.signal, progress: (f, s) => ctx.progress(0.02 + 0.96 * f, s) },
      );
      for (const ep of analysis.episodes) {
        if (ep.thumbnail) ep.thumbnail = relative(this.opts.dataDir, ep.thumbnail);
        for (const p of ep.pictures ?? []) if (p.thumbnail) p.thumbnail = relative(this.opts.dataDir, p.thumbnail);
      }
      for (const f of analysis.faces ?? []) if (f.thumbnail) f.thumbnail = relative(this.opts.dataDir, f.thumbnail);
      // Faces and voiceprints are biometric: an analysis holding them is not cached, so turning them off leaves no copy behind.
      // A remote worker's analysis is not cached either: only its job's owner may receive what a worker says.
      if (!analysis.faces && !analysis.voices && shared) this.cache.save(key, analysis);
      return { analysis, folder, origin: source.origin, src, localPath, ...about, capture: await captureOf(analysis.type), reused: false };
    } finally {
      await source.cleanup();
    }
  }
}
