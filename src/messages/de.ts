/**
 * The German texts of vidx's messages, made from the same keys and parameters as the English ones (en.ts).
 * Typed as a `Catalogue`, so a key missing here or a parameter it does not have is a compile error.
 */
import type { Catalogue, Noun } from './en.js';

/** Nouns of "… not found" messages. */
const NOUNS: Record<Noun, string> = {
  collection: 'Sammlung', 'media item': 'Eintrag', task: 'Aufgabe', folder: 'Ordner', person: 'Person', webhook: 'Webhook',
  key: 'Schlüssel', share: 'Freigabe', model: 'Modell', event: 'Ereignis',
};

/** Field names said in German in a detail; the rest are the API's names, which a caller types as they are. */
const FIELDS: Record<string, string> = { path: 'Pfad' };

/**
 * The German table.
 * @example
 * de.not_found({ what: 'collection', id: 'trips' }); // 'Sammlung „trips“ nicht gefunden'
 */
export const de: Catalogue = {
  field_problem: (p) => `${FIELDS[p.field] ?? p.field}: ${p.reason}`,

  not_found: (p) => `${NOUNS[p.what] ?? p.what} „${p.id}“ nicht gefunden`,
  collection_exists: (p) => `Die Sammlung „${p.id}“ gibt es schon`,
  collection_not_yours: (p) => `Die Sammlung „${p.id}“ gehört jemand anderem`,
  key_missing: () => 'Der API-Schlüssel fehlt (Kopfzeile x-api-key)',
  key_unknown: () => 'Diesen API-Schlüssel kennt der Server nicht',
  admin_only: () => 'Das braucht einen Admin-Schlüssel',
  public_create_admin_only: () => 'Nur Admins können öffentliche Sammlungen anlegen',
  public_make_admin_only: () => 'Nur Admins können eine Sammlung öffentlich machen',

  folder_outside_roots: (p) => `Der Ordner „${p.path}“ liegt außerhalb der Medienordner (VIDX_MEDIA_ROOTS)`,
  folder_outside_roots_allowed: (p) => `Der Ordner „${p.path}“ liegt außerhalb der Medienordner (VIDX_MEDIA_ROOTS); erlaubt sind: ${p.roots}`,
  path_outside_roots: (p) => `Der Pfad „${p.path}“ liegt außerhalb der Medienordner`,
  path_missing: (p) => `Den Pfad „${p.path}“ gibt es nicht`,
  path_missing_in_roots: (p) => `Den Pfad „${p.path}“ gibt es nicht`,
  path_not_directory: (p) => `Der Pfad „${p.path}“ ist kein Ordner`,
  path_not_absolute: (p) => `Der Pfad „${p.path}“ muss absolut sein (mit / beginnen)`,
  path_in_data_dir: (p) => `Der Pfad „${p.path}“ liegt in vidx’ eigenem Datenordner, der nie als Medien gelesen wird`,
  folder_link_outside: (p) => `Der Ordner „${p.path}“ führt (über einen Link) aus den Medienordnern hinaus`,
  path_link_outside: (p) => `Der Pfad „${p.path}“ führt (über einen Link) aus den Medienordnern hinaus`,

  folder_exists: (p) => `Der Ordner ${p.path} ist schon in der Sammlung „${p.collection}“`,
  // The folder's id means nothing to a person; its path says which folder it is.
  folder_overlaps: (p) => `Der Ordner ${p.path} überschneidet sich mit ${p.other_path} in der Sammlung „${p.collection}“`,
  task_retry_not_failed: (p) => `Nur eine fehlgeschlagene Aufgabe lässt sich wiederholen (${p.id})`,
  task_retry_collection_deleted: () => 'Die Aufgabe lässt sich nicht wiederholen: ihre Sammlung wurde gelöscht',
  model_being_pulled: (p) => `Das Modell ${p.id} wird gerade geladen; entferne es, wenn das fertig ist`,
  hub_unreachable: (p) =>
    `Der Modell-Hub unter ${p.hub} ist nicht erreichbar (${p.reason}): Dieser Rechner scheint offline zu sein. ` +
    `Um ${p.id} ohne den Hub zu bekommen, hol es auf einem Rechner mit Internetzugang: dort mit \`vidx models export ${p.id}\`, ` +
    `oder das Repository ${p.repo} von ${p.hub} (\`${/^https:\/\/huggingface\.co\/?$/.test(p.hub) ? '' : `HF_ENDPOINT=${p.hub} `}hf download ${p.repo} --revision ${p.revision} --local-dir <ordner>\`). ` +
    'Dann führe hier `vidx models import <ordner|archiv>` aus, oder nutze „Modell importieren…“ auf der Seite „Modelle“',
  hub_port_blocked: (p) =>
    `Der Modell-Hub unter ${p.hub} ist nicht erreichbar: Port ${p.port} gehört zu denen, mit denen Downloads sich nie verbinden (Browser und Node verweigern ihn), daher muss die Adresse des Hubs sich ändern: Setze VIDX_HUB_URL auf eine mit einem anderen Port`,
  import_unknown_model: (p) => `„${p.id}“ ist kein Modell, das vidx kennt (bekannt: ${p.known})`,
  import_not_a_model: () => 'Hier liegt kein Modell, das vidx kennt: Von keinem Modell des Manifests liegen hier Dateien',
  import_ambiguous: (p) => `Diese Dateien passen zu mehr als einem Modell (${p.ids}); nenne das gemeinte`,
  import_missing_file: (p) => `Modell ${p.id}: Die Datei „${p.file}“ fehlt`,
  import_wrong_size: (p) => `Modell ${p.id}: Die Datei „${p.file}“ hat ${p.size} Bytes statt ${p.expected}`,
  import_size_off: (p) => `Modell ${p.id}: Die Datei „${p.file}“ hat ${p.size} Bytes statt etwa ${p.about}: Sie ist abgeschnitten oder gehört zu einem anderen Modell`,
  import_not_gguf: (p) => `Modell ${p.id}: Die Datei „${p.file}“ ist keine GGUF-Datei (sie beginnt nicht mit GGUF): llama.cpp kann sie nicht laden`,
  import_wrong_hash: (p) => `Modell ${p.id}: Die Datei „${p.file}“ hat eine andere SHA-256-Prüfsumme als im Manifest: Sie ist beschädigt oder eine andere Version`,
  import_unsafe_path: (p) => `„${p.file}“ führt aus dem Ordner des Modells hinaus (ein absoluter Pfad, „..“ oder ein Link); nichts wurde importiert`,
  import_too_many_entries: (p) => `Das Archiv enthält mehr als ${p.most} Einträge, mehr als ein Modell hat; nichts wurde importiert`,
  import_too_large: (p) => `„${p.file}“ ist größer, als die Datei des Modells sein kann; nichts wurde importiert`,
  import_not_archive: (p) => `Kein tar-Archiv (.tar oder .tar.gz), das vidx lesen kann: ${p.reason}`,
  import_no_archive: () => 'Sende das Modell-Archiv (.tar oder .tar.gz) als Dateiteil einer multipart/form-data-Anfrage',
  share_link_gone: () => 'Dieser Freigabe-Link ist unbekannt, abgelaufen oder widerrufen',
  file_not_found: () => 'Datei nicht gefunden',
  not_in_collection: (p) => `nicht in der Sammlung „${p.collection}“: ${p.ids}`,
  start_past_end: (p) => `start_time: ${p.start} s liegt hinter dem Ende (${p.duration} s)`,
  past_end_of_item: () => 'liegt hinter dem Ende',
  language_has_lines: (p) => `Kein Transkript und keine Untertitel in „${p.asked}“: der Eintrag hat Zeilen in ${p.languages}`,
  language_only_transcript: (p) => `Kein Transkript und keine Untertitel in „${p.asked}“: der Eintrag hat nur sein Transkript, in ${p.language}`,
  language_no_transcript: (p) => `Kein Transkript und keine Untertitel in „${p.asked}“: der Eintrag hat kein Transkript`,

  near_off_earth: () => 'kein Punkt auf der Erde: die Breite muss zwischen -90 und 90 liegen, die Länge zwischen -180 und 180',
  near_unknown: (p) => `keine Stadt, keine Region und kein Land namens „${p.name}“ bekannt (Namen auf Englisch oder Deutsch, oder Breite,Länge)`,

  body_too_large: (p) => `Die Anfrage ist größer als ${p.max} Bytes`,
  request_too_large: (p) => `Die Anfrage überschreitet die Grenze von ${p.max} Bytes (VIDX_MAX_UPLOAD_MB)`,
  upload_too_large: (p) => `Das Hochladen von „${p.file}“ überschreitet die Grenze von ${p.max} Bytes (VIDX_MAX_UPLOAD_MB)`,
  // The parser's own reason is English (V8's); German says only what is wrong.
  body_not_json: (p) => (p.where === 'body' ? 'Der Inhalt ist kein gültiges JSON' : `${p.where}: kein gültiges JSON`),
  body_not_utf8: (p) => (p.where === 'body' ? 'Der Inhalt ist kein gültiges UTF-8' : `${p.where}: kein gültiges UTF-8`),
  form_body_not_utf8: () => 'Der Inhalt ist kein gültiges UTF-8',
  content_type_refused: (p) => `Der Inhaltstyp „${p.type}“ wird nicht angenommen`,

  as_given: (p) => p.text,

  json_nested_too_deep: (p) => `${p.where}: JSON tiefer als ${p.max} Ebenen verschachtelt`,
  lone_surrogate: (p) => `${p.field}: kein wohlgeformtes Unicode (ein einzelnes Ersatzzeichen wie \\ud800)`,
  bad_percent_encoding: (p) => `${p.what}: fehlerhafte Prozentkodierung oder kein gültiges UTF-8`,
  form_body_required: () => 'body: das Formularfeld „body“ fehlt',
  multipart_too_many_files: (p) => `multipart: mehr als ${p.max} Dateiteile; eine Anfrage darf höchstens ${p.max} tragen (das Video als ein Dateiteil, den video.content nennt)`,
  multipart_too_many_fields: (p) => `multipart: mehr als ${p.max} Felder; eine Anfrage darf höchstens ${p.max} tragen (das JSON gehört in das eine Feld „body“)`,
  multipart_without_body: () => 'multipart-Anfrage ohne Inhalt',
  multipart_unreadable: (p) => `Der multipart-Inhalt ließ sich nicht lesen: ${p.reason}`,
  form_field_too_large: (p) => `Das Formularfeld „${p.name}“ ist größer als ${p.max} Bytes`,
  body_before_files: (p) => `multipart: das Feld „body“ muss vor den Dateiteilen kommen (der Dateiteil „${p.file}“ kam zuerst)`,
  must_come_before_files: () => 'muss vor den Dateiteilen kommen',
  file_part_not_taken: (p) => `multipart: der Dateiteil „${p.file}“ wird hier nicht angenommen (kein Feld des Inhalts nennt eine Datei)`,
  file_part_not_named: (p) => `multipart: den Dateiteil „${p.file}“ nennt der Inhalt nicht (video.content); nur die genannte Datei wird angenommen`,
  names_not_part: (p) => `nennt nicht den Dateiteil „${p.file}“`,
  image_part_missing: (p) => `image: nennt keinen Dateiteil dieser Anfrage („${p.name}“); sende das Bild als Dateiteil einer multipart/form-data-Anfrage`,
  names_no_file_part: () => 'nennt keinen Dateiteil',
  content_part_missing: (p) => `video.content: keine hochgeladene Datei heißt „${p.name}“; sende sie als Teil einer multipart/form-data-Anfrage`,
  names_no_upload: () => 'nennt keine hochgeladene Datei',
  host_not_allowed: (p) =>
    `Auf den Host „${p.host}“ antwortet dieser Server nicht (ein Schutz gegen DNS-Rebinding): nimm localhost oder 127.0.0.1, trage „${p.host}“ in VIDX_ALLOWED_HOSTS (--allowed-hosts) ein, oder setze VIDX_PUBLIC_URL auf die Adresse, die Clients benutzen`,
  file_link_malformed: () => 'Der Datei-Link ist fehlerhaft (falsche Prozentkodierung)',
  link_signature_invalid: () => 'Die Signatur des Links ist ungültig oder abgelaufen',

  key_unknown_or_revoked: () => 'Unbekannter oder widerrufener Schlüssel',
  last_admin_key: () => 'Der letzte Admin-Schlüssel lässt sich nicht widerrufen: lege zuerst einen weiteren an',
  worker_fields_need_worker_role: () => 'worker_id und max_concurrency gibt es nur für Worker-Schlüssel',
  must_be_worker: () => 'muss worker sein',
  worker_id_refused: (p) => `worker_id „${p.id}“ ${p.reason}`,
  reserved_for_own_workers: (p) => `beginnt mit „${p.prefix}“, was den eigenen Workern des Servers vorbehalten ist`,
  belongs_to_another_key: () => 'gehört schon zu einem anderen Schlüssel',
  max_concurrency_range: (p) => `max_concurrency muss eine ganze Zahl von 1 bis ${p.max} sein`,
  from_1_to: (p) => `1 bis ${p.max}`,
  webhook_url_refused: (p) => `url: ${p.reason}`,
  webhook_limit: (p) => `Dieser Schlüssel hat schon ${p.max} Webhooks, mehr darf ein Schlüssel nicht haben (VIDX_MAX_WEBHOOKS_PER_KEY); lösche oder ändere einen`,
  person_self_merge: () => 'Eine Person lässt sich nicht mit sich selbst zusammenführen',
  must_differ_from_path_person: () => 'muss sich von der person_id im Pfad unterscheiden',
  track_not_of_person: (p) => `Die Gesichtsspur ${p.track} gehört nicht zur Person „${p.person}“`,
  not_a_track_of_person: () => 'keine Spur dieser Person',
  no_such_person: () => 'diese Person gibt es in der Sammlung nicht',
  ask_nothing_here: () => 'Nichts in dieser Sammlung sagt das.',
  ask_model_failed: (p) => `Das lokale Modell hat diese Antwort nicht geschrieben (${p.why}); sie ist den Stellen entnommen.`,
  ask_model_slow: (p) => `es brauchte länger als ${p.seconds} s`,
  ask_model_cited_nothing: () => 'Das lokale Modell hat keine der Stellen genannt; diese Antwort ist ihnen entnommen.',
  ask_nothing_anywhere: () => 'Nichts in deinem Archiv sagt das.',
  voice_not_of_person: (p) => `Die Stimme ${p.voice} gehört nicht zur Person „${p.person}“`,
  no_such_voices: (p) => `Diese Stimmen gibt es in der Sammlung nicht: ${p.ids}`,
  split_one_of: () => 'genau eines von track_id (eine Gesichtsspur) und voice_id (eine Stimme) angeben',
  no_such_speaker: (p) => `speaker: keine Person „${p.speaker}“ in dieser Sammlung (eine person_id oder ein Name aus GET /collections/{id}/people)`,
  media_item_exists: (p) => `Den Eintrag „${p.id}“ gibt es in der Sammlung schon`,
  scan_still_stopping: (p) => `Der Durchlauf des Ordners ${p.id} wird noch angehalten; versuche das Löschen gleich noch einmal`,
  near_unsupported: () => 'near: dieser Server hat kein Ortsverzeichnis, in dem er Orte nachschlagen könnte',
  search_corrected_tool: (p) => `Ergebnisse für ${p.searched}. Stattdessen nach ${p.original} suchen: search noch einmal mit correct_typos: false aufrufen.`,
  picture_unreadable: (p) => `${p.field}: ${p.reason}`,
  picture_not_shown: (p) => `Aus dem Bild lässt sich keines machen, das ein Browser zeigt: ${p.reason}`,
  like_outside_media: (p) => `like.start_time: ${p.time} s liegt außerhalb von „${p.id}“ (0–${p.end} s)`,
  outside_the_media: (p) => `außerhalb des Eintrags (0–${p.end} s)`,

  worker_key_only_jobs: () => 'Ein Worker-Schlüssel erreicht nur die Job-Endpunkte unter /worker',
  jobs_need_worker_key: () => 'Die Job-Endpunkte unter /worker brauchen einen Worker-Schlüssel',
  no_job_queue: () => 'Dieser Server hat keine Job-Warteschlange: starte ihn mit VIDX_QUEUE_URL',
  model_path_malformed: () => 'Der Pfad der Modelldatei ist fehlerhaft (falsche Prozentkodierung)',
  model_file_unknown: () => 'Keine solche Datei eines Modells, das dieser Server benutzt',
  model_file_missing: () => 'Die Modelldatei fehlt',
  job_held: () => 'Ein anderer Worker hat diesen Job gestartet und hält ihn noch: er lässt sich erst wieder starten, wenn dieser Worker verstummt ist',
  job_not_held: (p) => `Dieser Worker-Schlüssel hält den Job nicht (${p.holder}): nur der Schlüssel, der einen Job gestartet hat, meldet und liefert ihn`,
  job_held_by_other_worker: () => 'ein anderer Worker hält ihn',
  job_not_started: () => 'kein Worker hat ihn gestartet',
  delivered_file_refused: (p) => `Die gelieferte Datei ${p.file}: ${p.reason}`,
  worker_id_reserved: (p) =>
    `Die Worker-ID „${p.id}“ beginnt mit „${p.prefix}“, was den eigenen Workern des Servers vorbehalten ist (in jeder Schreibweise): starte diesen Worker mit einer anderen --id, unter einem eigenen Schlüssel`,
  reserved: () => 'reserviert',
  worker_id_taken: (p) => `Die Worker-ID „${p.id}“ gehört zu einem anderen Worker-Schlüssel; starte diesen Worker mit einer anderen --id`,
  taken: () => 'vergeben',
  concurrency_over_cap: (p) =>
    `concurrency ${p.concurrency} ist mehr, als dieser Worker-Schlüssel ankündigen darf (${p.cap}); starte den Worker mit --concurrency ${p.cap} oder weniger, oder lege einen Schlüssel mit --max-concurrency an`,
  at_most_for_key: (p) => `höchstens ${p.cap} für diesen Schlüssel`,
  worker_requests_in_flight: (p) =>
    `Dieser Worker-Schlüssel hat schon ${p.max} Anfragen in Arbeit, so viele wie er darf (eine je Job, den sein Worker angekündigt hat, und VIDX_WORKER_SPARE_REQUESTS): sende diese noch einmal, sobald eine davon beantwortet ist`,
  worker_not_announced: () => 'Dieser Worker-Schlüssel hat noch kein Lebenszeichen gesendet: ein Worker meldet sich an, bevor er Jobs startet',
  worker_id_mismatch: (p) => `Dieser Worker-Schlüssel gehört zum Worker „${p.bound}“, nicht zu „${p.given}“: ein Worker-Schlüssel ist ein Worker`,
  delivery_too_large: (p) => `Diese Lieferung ist größer als ${p.max} Bytes, alle Teile zusammen: mehr davon wurde nicht gelesen`,
  delivery_line_too_large: (p) =>
    `Zeile ${p.line} des Inhalts („body“) der Lieferung ist länger als ${p.max} Bytes: sende die Analyse als JSON-Zeilen (der \`vidx worker\` dieser Version tut das), keine länger als das`,
  delivery_body_twice: () => 'Die Lieferung hat zwei Teile „body“: sende einen, vor den Dateien',
  given_twice: () => 'doppelt angegeben',
  delivery_list_missing: (p) => `Eine Zeile der Lieferung ergänzt ${p.list}, das es nicht gibt (seine Episode oder Spur muss in einer früheren Zeile kommen)`,
  names_no_list_yet: () => '(noch) nicht vorhanden',
  delivery_list_too_long: (p) => `${p.list} hat mehr als ${p.max} Einträge`,
  at_most_items: (p) => `höchstens ${p.max} Einträge`,
  delivered_file_not_named: (p) => `Den Dateiteil „${p.file}“ nennen die „files“ der Lieferung nicht (oder er kam doppelt): nur dort genannte ep-<n>.jpg und face-<n>.jpg werden angenommen`,
  episode_text_too_long: (p) =>
    `Episode ${p.n} enthält ${p.size} Zeichen Text (ihre Zeilen, Bildschirmtext, Schlagwörter, Zusammenfassung und die Bildschirmtext- und Untertitelzeilen in ihrer Zeit), mehr als die ${p.max}, die eine Episode enthalten darf`,
  text_at_most: (p) => `${p.size} Zeichen Text; höchstens ${p.max}`,
  delivery_lines_overlap: (p) => `Die Zeilen von ${p.list} liegen in viel zu vielen Episoden zugleich (jede Zeile in vielen Episoden): das ist keine Analyse der Pipeline`,
  overlap_too_many_episodes: () => 'seine Zeilen liegen in zu vielen Episoden',
  not_this_keys_worker: () => 'nicht der Worker dieses Schlüssels',

  must_match: (p) => `muss ${p.pattern} entsprechen`,
  unknown_field: () => 'unbekanntes Feld',
  required: () => 'fehlt',
  nested_too_deep: (p) => `tiefer als ${p.max} Ebenen verschachtelt`,
  json_too_large: (p) => `größer als ${p.max_kib} KiB als JSON (${p.kib} KiB)`,
  not_well_formed_unicode: () => 'kein gültiges Unicode',
  not_json: () => 'kein gültiges JSON',
  not_utf8: () => 'kein gültiges UTF-8',
  absolute_http_url: () => 'muss eine absolute http- oder https-URL sein',
  one_video_source: () => 'genau eines von path, url oder content ist nötig',
  title_or_metadata: () => 'gib title, additional_metadata oder beides an',
  language_tag: (p) => `muss eine Sprachangabe wie ${p.examples} oder ${p.last} sein`,
  speaker_label: (p) => `Sprecher ${p.n}`,

  // The model's state (`reason`) comes from the model registry in English: it stands in brackets.
  analysis_no_visual_tags: (p) => `Keine Bildschlagwörter und keine Bildsuche: das Bild-Text-Modell ist nicht bereit (${p.reason})`,
  analysis_no_text_vectors: (p) => `Zusammenfassungen nur nach Wörtern gereiht und keine Suche nach Bedeutung: das Text-Embedding-Modell ist nicht bereit (${p.reason})`,
  analysis_speech_not_transcribed: (p) => `Sprache gefunden, aber nicht verschriftet: das Spracherkennungsmodell ist nicht bereit (${p.reason})`,
  analysis_no_transcript: () => 'Kein Transkript: keine Untertitel und keine Sprache gefunden',
  analysis_faces_not_grouped: (p) => `Gesichter gefunden, aber nicht zu Personen gruppiert: das Gesichts-Embedding-Modell ist nicht bereit (${p.reason})`,
  analysis_subtitle_cues_cut: (p) =>
    `Untertitel gekürzt: ${p.name} hat ${p.cues} Einträge, mehr als eine Aufnahme dieser Länge fasst; die ersten ${p.kept} bleiben`,
  analysis_subtitle_lines_cut: (p) => `Untertitel gekürzt: ${p.lines} Zeilen von ${p.name} sind länger als ${p.chars} Zeichen und wurden gekürzt`,
  analysis_subtitle_file_unread: (p) => `Untertiteldatei nicht gelesen: ${p.reason}`,
  analysis_subtitle_tracks_one_read: (p) => `Nur eine von ${p.tracks} Untertitelspuren wurde gelesen: ${p.reason}`,
  analysis_subtitle_tracks_unread: (p) => `Die Untertitelspuren in der Datei wurden nicht gelesen: ${p.reason}`,
  analysis_exif_unreadable: (p) => `Der EXIF-Block des Bildes war nicht lesbar (${p.reason}): Datum und GPS-Punkt wurden nicht daraus genommen`,
};
