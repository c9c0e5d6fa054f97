/**
 * The German texts of vidx's messages, made from the same keys and parameters as the English ones (en.ts).
 * Typed as a `Catalogue`, so a key missing here or a parameter it does not have is a compile error.
 */
import type { Catalogue, Noun } from './en.js';

/** Nouns of "… not found" messages. */
const NOUNS: Record<Noun, string> = {
  collection: 'Sammlung', 'media item': 'Eintrag', task: 'Aufgabe', folder: 'Ordner', person: 'Person', webhook: 'Webhook',
  key: 'Schlüssel', share: 'Freigabe', model: 'Modell',
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
  share_link_gone: () => 'Dieser Freigabe-Link ist unbekannt, abgelaufen oder widerrufen',
  file_not_found: () => 'Datei nicht gefunden',
  not_in_collection: (p) => `nicht in der Sammlung „${p.collection}“: ${p.ids}`,
  start_past_end: (p) => `start_time: ${p.start} s liegt hinter dem Ende (${p.duration} s)`,
  past_end_of_item: () => 'liegt hinter dem Ende',
  language_has_lines: (p) => `Kein Transkript und keine Untertitel in „${p.asked}“: der Eintrag hat Zeilen in ${p.languages}`,
  language_only_transcript: (p) => `Kein Transkript und keine Untertitel in „${p.asked}“: der Eintrag hat nur sein Transkript, in ${p.language}`,
  language_no_transcript: (p) => `Kein Transkript und keine Untertitel in „${p.asked}“: der Eintrag hat kein Transkript`,

  near_off_earth: () => 'kein Punkt auf der Erde: die Breite muss zwischen -90 und 90 liegen, die Länge zwischen -180 und 180',
  near_unknown: (p) => `keine Stadt, Region und kein Land namens „${p.name}“ bekannt (Namen auf Englisch oder Deutsch, oder Breite,Länge)`,

  body_too_large: (p) => `Die Anfrage ist größer als ${p.max} Bytes`,
  request_too_large: (p) => `Die Anfrage überschreitet die Grenze von ${p.max} Bytes (VIDX_MAX_UPLOAD_MB)`,
  upload_too_large: (p) => `Das Hochladen von „${p.file}“ überschreitet die Grenze von ${p.max} Bytes (VIDX_MAX_UPLOAD_MB)`,
  // The parser's own reason is English (V8's); German says only what is wrong.
  body_not_json: (p) => (p.where === 'body' ? 'Der Inhalt ist kein gültiges JSON' : `${p.where}: kein gültiges JSON`),
  body_not_utf8: (p) => (p.where === 'body' ? 'Der Inhalt ist kein gültiges UTF-8' : `${p.where}: kein gültiges UTF-8`),
  form_body_not_utf8: () => 'Der Inhalt ist kein gültiges UTF-8',
  content_type_refused: (p) => `Der Inhaltstyp „${p.type}“ wird nicht angenommen`,

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
};
