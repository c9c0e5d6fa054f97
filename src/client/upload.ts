/**
 * Multipart bodies that carry a file with their request: an upload to POST /index or /analyze, a query
 * picture for POST /search, and a model archive for POST /models/import. The `body` field (the request as
 * JSON) goes first, as the server reads parts in order, then the file as the part the request names.
 * Browser-safe.
 */
import type { components } from './openapi.js';

/**
 * The request of an upload; `video.content` is set here.
 * @example
 * const request: UploadRequest = { collection: 'trips', video: { title: 'Lake' } };
 */
export type UploadRequest = components['schemas']['IndexRequest'] | components['schemas']['AnalyzeRequest'];

/** The part name the file goes under; `video.content` names it, which is valid whatever the file is called. */
const PART = 'media';

/**
 * The FormData that uploads `file` with `request` (its `video.content` pointing at the file part).
 * @example
 * const form = mediaForm({ collection: 'trips', video: { title: 'Lake' } }, blob, 'lake.mp4');
 * await fetch('/index', { method: 'POST', headers: { 'x-api-key': key }, body: form });
 */
export function mediaForm(request: UploadRequest, file: Blob, filename: string): FormData {
  return withFile({ ...request, video: { ...request.video, content: PART } }, PART, file, filename);
}

/**
 * A search by picture: POST /search's request without `image`, which is set here (or `image_path`, which a
 * picture sent along replaces).
 * @example
 * const request: PictureSearchRequest = { collection: 'trips', query: 'lake' };
 */
export type PictureSearchRequest = Omit<components['schemas']['SearchRequest'], 'image' | 'image_path'>;

/** The part name of a query picture; `image` names it. */
const PICTURE_PART = 'picture';

/**
 * The FormData that searches with `picture` (its `image` pointing at the file part), words and filters of
 * `request` fused with it.
 * @example
 * const form = pictureSearchForm({ collection: 'trips', query: 'lake' }, blob, 'shot.jpg');
 * await fetch('/search', { method: 'POST', headers: { 'x-api-key': key }, body: form });
 */
export function pictureSearchForm(request: PictureSearchRequest, picture: Blob, filename: string): FormData {
  return withFile({ ...request, image: PICTURE_PART }, PICTURE_PART, picture, filename);
}

/** The part name of a model archive; `archive` names it. */
const ARCHIVE_PART = 'archive';

/**
 * The FormData that imports a model archive (POST /models/import), optionally saying which model it is.
 * @example
 * await fetch('/models/import', { method: 'POST', headers: { 'x-api-key': key }, body: modelArchiveForm(blob, 'whisper-base.tar') });
 */
export function modelArchiveForm(archive: Blob, filename: string, modelId?: string): FormData {
  return withFile({ archive: ARCHIVE_PART, ...(modelId ? { model_id: modelId } : {}) }, ARCHIVE_PART, archive, filename);
}

/** The request as the `body` field, then the file under `part`. */
function withFile(body: object, part: string, file: Blob, filename: string): FormData {
  const form = new FormData();
  form.set('body', JSON.stringify(body));
  // A Blob from openAsBlob (Node) or a File (browser) is streamed as it is sent, never held in memory here.
  form.set(part, file, filename);
  return form;
}
