/**
 * The multipart body of an upload to POST /index or /analyze: the `body` field (the request as JSON) first,
 * as the server reads parts in order, then the file as the part `video.content` names. Browser-safe.
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
  const form = new FormData();
  form.set('body', JSON.stringify({ ...request, video: { ...request.video, content: PART } }));
  // A Blob from openAsBlob (Node) or a File (browser) is streamed as it is sent, never held in memory here.
  form.set(PART, file, filename);
  return form;
}
