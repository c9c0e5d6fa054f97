/**
 * The English texts of vidx's messages to a caller, one entry per message key: each a function of its
 * parameters. The key is the message's identity; rewording a text here keeps its German (de.ts), which is
 * made from the same key and parameters. Pure TypeScript with no imports, so every layer and the web page
 * may use it.
 */

/** Things a "… not found" message may name. */
export type Noun = 'collection' | 'media item' | 'task' | 'folder' | 'person' | 'webhook' | 'key' | 'share' | 'model' | 'event';

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
  // Models a person can get (src/ml/registry): a hub out of reach, and a model brought in by hand.
  // The Hugging Face CLI downloads from huggingface.co unless HF_ENDPOINT names another hub.
  hub_unreachable: (p: { hub: string; reason: string; id: string; repo: string; revision: string }) =>
    `cannot reach the model hub at ${p.hub} (${p.reason}): this machine seems to be offline. ` +
    `To bring ${p.id} in without the hub, get it on a machine with internet access: \`vidx models export ${p.id}\` there, ` +
    `or the repository ${p.repo} from ${p.hub} (\`${/^https:\/\/huggingface\.co\/?$/.test(p.hub) ? '' : `HF_ENDPOINT=${p.hub} `}hf download ${p.repo} --revision ${p.revision} --local-dir <folder>\`). ` +
    'Then run `vidx models import <folder|archive>` here, or use “Import a model…” on the Models page',
  hub_port_blocked: (p: { hub: string; port: string }) =>
    `cannot reach the model hub at ${p.hub}: port ${p.port} is one that downloads never connect to (browsers and Node refuse it), so the hub's address must change: set VIDX_HUB_URL to one on another port`,
  import_unknown_model: (p: { id: string; known: string }) => `"${p.id}" is no model vidx knows (known: ${p.known})`,
  import_not_a_model: () => 'this holds no model vidx knows: none of the manifest\'s models has its files here',
  import_ambiguous: (p: { ids: string }) => `these files fit more than one model (${p.ids}); name the one you mean`,
  import_missing_file: (p: { id: string; file: string }) => `model ${p.id}: file "${p.file}" is missing`,
  import_wrong_size: (p: { id: string; file: string; size: number; expected: number }) =>
    `model ${p.id}: file "${p.file}" has ${p.size} bytes, expected ${p.expected}`,
  import_size_off: (p: { id: string; file: string; size: number; about: number }) =>
    `model ${p.id}: file "${p.file}" has ${p.size} bytes, about ${p.about} expected: it is cut off or another model's`,
  import_not_gguf: (p: { id: string; file: string }) => `model ${p.id}: file "${p.file}" is not a GGUF file (it does not begin with GGUF): llama.cpp cannot load it`,
  import_wrong_hash: (p: { id: string; file: string }) => `model ${p.id}: file "${p.file}" has another SHA-256 than the manifest's: it is damaged or another version`,
  import_unsafe_path: (p: { file: string }) => `"${p.file}" leads outside the model's folder (an absolute path, "..", or a link); nothing was imported`,
  import_too_many_entries: (p: { most: number }) => `the archive holds more than ${p.most} members, more than any model has; nothing was imported`,
  import_too_large: (p: { file: string }) => `"${p.file}" is larger than the model's file can be; nothing was imported`,
  import_not_archive: (p: { reason: string }) => `not a tar archive (.tar or .tar.gz) vidx can read: ${p.reason}`,
  import_no_archive: () => 'send the model archive (.tar or .tar.gz) as a file part of a multipart/form-data request',
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

  // A reason a lower layer gives only in English (zod's own wording, a decoder's or a tool's error): said
  // as given in every language. The German of zod's issues is made from the issue itself (http/german.ts).
  as_given: (p: { text: string }) => p.text,

  // Requests the HTTP layer refuses before a service sees them (json-body.ts, middleware/*, routes/*).
  json_nested_too_deep: (p: { where: string; max: number }) => `${p.where}: JSON nested deeper than ${p.max} levels`,
  lone_surrogate: (p: { field: string }) => `${p.field}: not well-formed Unicode (a lone surrogate such as \\ud800)`,
  bad_percent_encoding: (p: { what: string }) => `${p.what}: malformed percent-encoding or not valid UTF-8`,
  form_body_required: () => 'body: the form field "body" is required',
  multipart_too_many_files: (p: { max: number }) => `multipart: more than ${p.max} file parts; a request may carry at most ${p.max} (send the video as one file part named by video.content)`,
  multipart_too_many_fields: (p: { max: number }) => `multipart: more than ${p.max} fields; a request may carry at most ${p.max} (the JSON goes in the one field "body")`,
  multipart_without_body: () => 'multipart request without a body',
  multipart_unreadable: (p: { reason: string }) => `multipart body could not be read: ${p.reason}`,
  form_field_too_large: (p: { name: string; max: number }) => `form field "${p.name}" is larger than ${p.max} bytes`,
  body_before_files: (p: { file: string }) => `multipart: the "body" field must come before the file parts (file part "${p.file}" came first)`,
  must_come_before_files: () => 'must come before the file parts',
  file_part_not_taken: (p: { file: string }) => `multipart: file part "${p.file}" is not taken here (no field of the body names a file)`,
  file_part_not_named: (p: { file: string }) => `multipart: file part "${p.file}" is not named by the body (video.content); only the named file is accepted`,
  names_not_part: (p: { file: string }) => `does not name file part "${p.file}"`,
  image_part_missing: (p: { name: string }) => `image: names no file part of this request ("${p.name}"); send the picture as a file part of a multipart/form-data request`,
  names_no_file_part: () => 'names no file part',
  content_part_missing: (p: { name: string }) => `video.content: no uploaded file is named "${p.name}"; send it as a part of a multipart/form-data request`,
  names_no_upload: () => 'names no uploaded file',
  host_not_allowed: (p: { host: string }) =>
    `Host "${p.host}" is not a name this server answers to (a guard against DNS rebinding): use localhost or 127.0.0.1, or add "${p.host}" to VIDX_ALLOWED_HOSTS (--allowed-hosts), or set VIDX_PUBLIC_URL to the address clients use`,
  file_link_malformed: () => 'file link is malformed (bad percent-encoding)',
  link_signature_invalid: () => 'link signature is invalid or expired',

  // Keys, webhooks, people, items, tasks and folders (services/*).
  key_unknown_or_revoked: () => 'unknown or revoked key',
  last_admin_key: () => 'cannot revoke the last admin key: create another admin key first',
  worker_fields_need_worker_role: () => 'worker_id and max_concurrency are for worker keys only',
  must_be_worker: () => 'must be worker',
  worker_id_refused: (p: { id: string; reason: string }) => `worker_id "${p.id}" ${p.reason}`,
  reserved_for_own_workers: (p: { prefix: string }) => `starts with “${p.prefix}”, which is reserved for the server’s own workers`,
  belongs_to_another_key: () => 'belongs to another key',
  max_concurrency_range: (p: { max: number }) => `max_concurrency must be a whole number from 1 to ${p.max}`,
  from_1_to: (p: { max: number }) => `1 to ${p.max}`,
  webhook_url_refused: (p: { reason: string }) => `url: ${p.reason}`,
  webhook_limit: (p: { max: number }) => `this key already has ${p.max} webhooks, the most one key may have (VIDX_MAX_WEBHOOKS_PER_KEY); delete one or change an existing one`,
  person_self_merge: () => 'cannot merge a person with themselves',
  must_differ_from_path_person: () => 'must differ from the path person_id',
  track_not_of_person: (p: { track: string; person: string }) => `face track ${p.track} is not one of person "${p.person}"`,
  not_a_track_of_person: () => 'not a track of this person',
  no_such_person: () => 'no such person in this collection',
  ask_nothing_here: () => 'Nothing in this collection says so.',
  ask_model_failed: (p: { why: string }) => `The local model did not write this answer (${p.why}); this one is taken from the moments.`,
  ask_model_slow: (p: { seconds: number }) => `it took longer than ${p.seconds} s`,
  ask_model_cited_nothing: () => 'The local model cited none of the moments; this answer is taken from them.',
  ask_nothing_anywhere: () => 'Nothing in your archive says so.',
  voice_not_of_person: (p: { voice: string; person: string }) => `voice ${p.voice} is not one of person "${p.person}"`,
  no_such_voices: (p: { ids: string }) => `no such voices in this collection: ${p.ids}`,
  split_one_of: () => 'give exactly one of track_id (a face track) and voice_id (a voice)',
  no_such_speaker: (p: { speaker: string }) => `speaker: no person "${p.speaker}" in this collection (a person_id or a name from GET /collections/{id}/people)`,
  media_item_exists: (p: { id: string }) => `media item "${p.id}" is already in the collection`,
  scan_still_stopping: (p: { id: string }) => `the scan of folder ${p.id} is still stopping; try the delete again in a moment`,
  near_unsupported: () => 'near: this server has no gazetteer to look places up in',
  search_corrected_tool: (p: { searched: string; original: string }) => `Showing results for ${p.searched}. Search for ${p.original} instead: call search again with correct_typos: false.`,
  picture_unreadable: (p: { field: string; reason: string }) => `${p.field}: ${p.reason}`,
  picture_not_shown: (p: { reason: string }) => `the picture cannot be made into one a browser shows: ${p.reason}`,
  like_outside_media: (p: { time: number; id: string; end: number }) => `like.start_time: ${p.time} s is outside media "${p.id}" (0–${p.end} s)`,
  outside_the_media: (p: { end: number }) => `outside the media (0–${p.end} s)`,

  // The job endpoints a `vidx worker` calls (services/jobs, routes/workers.ts).
  worker_key_only_jobs: () => 'a worker key reaches only the job endpoints under /worker',
  jobs_need_worker_key: () => 'the job endpoints under /worker need a worker key',
  no_job_queue: () => 'this server has no job queue: start it with VIDX_QUEUE_URL',
  model_path_malformed: () => 'model file path is malformed (bad percent-encoding)',
  model_file_unknown: () => 'no such file of a model this server uses',
  model_file_missing: () => 'model file missing',
  job_held: () => 'another worker started this job and still holds it: it may be started again only once that worker has gone silent',
  job_not_held: (p: { holder: string }) => `this worker key does not hold the job (${p.holder}): only the key that started a job reports on it and delivers it`,
  job_held_by_other_worker: () => 'another worker holds it',
  job_not_started: () => 'no worker has started it',
  delivered_file_refused: (p: { file: string; reason: string }) => `the delivered file ${p.file} ${p.reason}`,
  worker_id_reserved: (p: { id: string; prefix: string }) =>
    `the worker id "${p.id}" starts with "${p.prefix}", which is reserved for the server's own workers (in any case): start this worker with another --id, under a key of its own`,
  reserved: () => 'reserved',
  worker_id_taken: (p: { id: string }) => `the worker id "${p.id}" belongs to another worker key; start this worker with another --id`,
  taken: () => 'taken',
  concurrency_over_cap: (p: { concurrency: number; cap: number }) =>
    `concurrency ${p.concurrency} is more than this worker key may announce (${p.cap}); start the worker with --concurrency ${p.cap} or less, or make a key with --max-concurrency`,
  at_most_for_key: (p: { cap: number }) => `at most ${p.cap} for this key`,
  worker_requests_in_flight: (p: { max: number }) =>
    `this worker key has ${p.max} requests in flight already, as many as it may (one per job its worker announced and VIDX_WORKER_SPARE_REQUESTS): send this one again when one of them has been answered`,
  worker_not_announced: () => 'this worker key has sent no heartbeat yet: a worker announces itself before it starts jobs',
  worker_id_mismatch: (p: { bound: string; given: string }) => `this worker key belongs to the worker "${p.bound}", not "${p.given}": one worker key is one worker`,
  not_this_keys_worker: () => 'not this key’s worker',
  delivery_too_large: (p: { max: number }) => `this delivery is larger than ${p.max} bytes, all parts together: nothing more of it was read`,
  delivery_line_too_large: (p: { line: number; max: number }) =>
    `line ${p.line} of the delivery's body is longer than ${p.max} bytes: send the analysis as JSON lines (the \`vidx worker\` of this version does), none longer than that`,
  delivery_body_twice: () => 'the delivery has two "body" parts: send one, before the files',
  given_twice: () => 'given twice',
  delivery_list_missing: (p: { list: string }) => `a line of the delivery adds to ${p.list}, which is not there (its episode or track must come in an earlier line)`,
  names_no_list_yet: () => 'not there (yet)',
  delivery_list_too_long: (p: { list: string; max: number }) => `${p.list} holds more than ${p.max} entries`,
  at_most_items: (p: { max: number }) => `at most ${p.max} entries`,
  delivered_file_not_named: (p: { file: string }) => `the file part "${p.file}" is not named in the delivery's "files" (or came twice): only ep-<n>.jpg and face-<n>.jpg named there are taken`,
  episode_text_too_long: (p: { n: number; size: number; max: number }) =>
    `episode ${p.n} holds ${p.size} characters of text (its lines, on-screen text, tags, summary, and the screen-text and subtitle lines in its time), more than the ${p.max} one episode may hold`,
  text_at_most: (p: { max: number; size: number }) => `${p.size} characters of text; at most ${p.max}`,
  delivery_lines_overlap: (p: { list: string }) => `the lines of ${p.list} lie in far too many episodes at once (each line in many episodes): this is no analysis of the pipeline`,
  overlap_too_many_episodes: () => 'its lines lie in too many episodes',

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
  speaker_label: (p: { n: number }) => `Speaker ${p.n}`,

  // Warnings of the analysis pipeline (src/analysis/warnings.ts): what a step could not do. They are kept as
  // key and parameters with the analysis and said in the reader's language where they leave the server.
  // `reason` is the model's state as the model registry says it (in English), or a lower layer's error.
  analysis_no_visual_tags: (p: { reason: string }) => `no visual tags or frame search: the image-text model is ${p.reason}`,
  analysis_no_text_vectors: (p: { reason: string }) => `summaries ranked lexically and no semantic text search: the text embedding model is ${p.reason}`,
  analysis_speech_not_transcribed: (p: { reason: string }) => `speech found but not transcribed: the speech recognition model is ${p.reason}`,
  analysis_no_transcript: () => 'no transcript: no subtitles and no speech found',
  analysis_faces_not_grouped: (p: { reason: string }) => `faces found but not grouped into people: the face embedding model is ${p.reason}`,
  analysis_subtitle_cues_cut: (p: { name: string; cues: number; kept: number }) =>
    `subtitles cut: ${p.name} has ${p.cues} cues, more than a recording of this length holds; the first ${p.kept} are kept`,
  analysis_subtitle_lines_cut: (p: { name: string; lines: number; chars: number }) =>
    `subtitles cut: ${p.lines} lines of ${p.name} are longer than ${p.chars} characters and were shortened`,
  analysis_subtitle_file_unread: (p: { reason: string }) => `subtitle file ${p.reason}`,
  analysis_subtitle_tracks_one_read: (p: { tracks: number; reason: string }) => `only one of ${p.tracks} subtitle tracks was read: ${p.reason}`,
  analysis_subtitle_tracks_unread: (p: { reason: string }) => `the subtitle tracks inside the file were not read: ${p.reason}`,
  analysis_exif_unreadable: (p: { reason: string }) => `the picture's EXIF block could not be read (${p.reason}): its date and GPS point were not taken from it`,
};

/** Every message key. */
export type MessageKey = keyof typeof en;

/** The parameters of a message key (`undefined` for a key without any). */
export type MessageParams<K extends MessageKey> = Parameters<(typeof en)[K]>[0];

/** A table of one language: every key of the English one, each a function of the same parameters. */
export type Catalogue = { [K in MessageKey]: (p: MessageParams<K>) => string };
