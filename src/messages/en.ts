/**
 * The English texts of vidx's messages to a caller, one entry per message key: each a function of its
 * parameters. The key is the message's identity; rewording a text here keeps its German (de.ts), which is
 * made from the same key and parameters. Pure TypeScript with no imports, so every layer and the web page
 * may use it.
 */

/** Things a "… not found" message may name. */
export type Noun = 'collection' | 'media item' | 'task' | 'folder' | 'person' | 'webhook' | 'key' | 'share' | 'model';

/**
 * The English table. Parameters named `reason` may be given as another message (see `msg`): it is rendered
 * in the same language first.
 * @example
 * en.not_found({ what: 'collection', id: 'trips' }); // 'collection "trips" not found'
 */
export const en = {
  // A problem of one field, said as "field: reason" (German names `path` "Pfad").
  field_problem: (p: { field: string; reason: string }) => `${p.field}: ${p.reason}`,

  not_found: (p: { what: Noun; id: string }) => `${p.what} "${p.id}" not found`,
  collection_exists: (p: { id: string }) => `collection "${p.id}" already exists`,
  collection_not_yours: (p: { id: string }) => `collection "${p.id}" belongs to another owner`,
  key_missing: () => 'missing x-api-key header (or Authorization: Bearer <key>)',
  key_unknown: () => 'unknown API key',
  admin_only: () => 'this needs an admin key',
  public_create_admin_only: () => 'only admins can create public collections',
  public_make_admin_only: () => 'only admins can make a collection public',

  // Paths a caller names on the server's machine (src/media/folder-path.ts, source-path.ts).
  folder_outside_roots: (p: { path: string }) => `the folder "${p.path}" is outside the configured media roots (VIDX_MEDIA_ROOTS)`,
  folder_outside_roots_allowed: (p: { path: string; roots: string }) => `the folder "${p.path}" is outside the configured media roots (VIDX_MEDIA_ROOTS); allowed: ${p.roots}`,
  path_outside_roots: (p: { path: string }) => `path "${p.path}" is outside the configured media roots`,
  path_missing: (p: { path: string }) => `path "${p.path}" does not exist`,
  path_missing_in_roots: (p: { path: string }) => `path "${p.path}" does not exist in the configured media roots`,
  path_not_directory: (p: { path: string }) => `path "${p.path}" is not a directory`,
  path_not_absolute: (p: { path: string }) => `path "${p.path}" must be absolute`,
  path_in_data_dir: (p: { path: string }) => `path "${p.path}" is inside vidx's own data folder, which is never read as media`,
  folder_link_outside: (p: { path: string }) => `the folder "${p.path}" leads (through a symbolic link) outside the configured media roots (VIDX_MEDIA_ROOTS)`,
  path_link_outside: (p: { path: string }) => `path "${p.path}" leads (through a symbolic link) outside the configured media roots`,

  folder_exists: (p: { path: string; collection: string }) => `folder ${p.path} is already in collection "${p.collection}"`,
  folder_overlaps: (p: { path: string; other_id: string; other_path: string; collection: string }) =>
    `folder ${p.path} overlaps folder ${p.other_id} (${p.other_path}) of collection "${p.collection}"`,
  task_retry_not_failed: (p: { id: string; status: string }) => `only a failed task can be retried; task ${p.id} is ${p.status}`,
  // "collection deleted" is the failure code's wording (COLLECTION_DELETED in task-engine.ts).
  task_retry_collection_deleted: (p: { id: string }) =>
    `task ${p.id} cannot be retried: collection deleted (its collection was deleted; a new collection of the same id is another collection)`,
  model_being_pulled: (p: { id: string }) => `model ${p.id} is being pulled; remove it when the pull has ended`,
  share_link_gone: () => 'this share link is unknown, expired or revoked',
  file_not_found: () => 'file not found',
  not_in_collection: (p: { collection: string; ids: string }) => `not in collection "${p.collection}": ${p.ids}`,
  start_past_end: (p: { start: number; duration: number }) => `start_time: ${p.start} s is past the end of the item (${p.duration} s)`,
  past_end_of_item: () => 'past the end of the item',
  language_has_lines: (p: { asked: string; languages: string }) => `no transcript or subtitles in "${p.asked}": the item has lines in ${p.languages}`,
  language_only_transcript: (p: { asked: string; language: string }) => `no transcript or subtitles in "${p.asked}": the item has only its transcript, in ${p.language}`,
  language_no_transcript: (p: { asked: string }) => `no transcript or subtitles in "${p.asked}": the item has no transcript`,

  // The `near` filter of search and the item list (services/places.ts).
  near_off_earth: () => 'no point on Earth: latitude must be within -90..90 and longitude within -180..180',
  near_unknown: (p: { name: string }) => `no city, region or country called "${p.name}" is known (names in English or German, or latitude,longitude)`,

  // Request bodies (src/http/json-body.ts, middleware/form-body, the body limit of app.ts).
  body_too_large: (p: { max: number }) => `request body is larger than ${p.max} bytes`,
  request_too_large: (p: { max: number }) => `request is larger than the limit of ${p.max} bytes (VIDX_MAX_UPLOAD_MB counts all parts together)`,
  upload_too_large: (p: { file: string; max: number }) =>
    `upload "${p.file}" makes the request larger than the limit of ${p.max} bytes (VIDX_MAX_UPLOAD_MB counts all parts together)`,
  body_not_json: (p: { where: string; reason: string }) => `${p.where}: not valid JSON (${p.reason})`,
  body_not_utf8: (p: { where: string }) => `${p.where}: not valid UTF-8; send text encoded as UTF-8`,
  form_body_not_utf8: () => 'body: not valid UTF-8 (or holds U+FFFD, the mark of a replaced byte); send text encoded as UTF-8',
  content_type_refused: (p: { type: string }) =>
    `content type "${p.type}" is not accepted: send application/x-www-form-urlencoded or multipart/form-data with a field "body" holding JSON, or application/json`,

  // Field messages: what one field broke.
  must_match: (p: { pattern: string }) => `must match ${p.pattern}`,
  unknown_field: () => 'unknown field',
  required: () => 'required',
  nested_too_deep: (p: { max: number }) => `nested deeper than ${p.max} levels`,
  json_too_large: (p: { max_kib: number; kib: number }) => `larger than ${p.max_kib} KiB as JSON (${p.kib} KiB)`,
  not_well_formed_unicode: () => 'not well-formed Unicode',
  not_json: () => 'not valid JSON',
  not_utf8: () => 'not valid UTF-8',
  absolute_http_url: () => 'must be an absolute http or https URL',
  one_video_source: () => 'exactly one of path, url or content is required',
  title_or_metadata: () => 'give title, additional_metadata or both',
  language_tag: (p: { examples: string; last: string }) => `must be a language tag such as ${p.examples} or ${p.last}`,
};

/** Every message key. */
export type MessageKey = keyof typeof en;

/** The parameters of a message key (`undefined` for a key without any). */
export type MessageParams<K extends MessageKey> = Parameters<(typeof en)[K]>[0];

/** A table of one language: every key of the English one, each a function of the same parameters. */
export type Catalogue = { [K in MessageKey]: (p: MessageParams<K>) => string };
