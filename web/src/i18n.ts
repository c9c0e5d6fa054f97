/** English and German text; the browser's language picks one, the header switches it (kept in localStorage). */
import { useEffect, useState } from 'preact/hooks';

const en = {
  // Issue 23 (the lead's texts): stages, tasks in words, errors by code, models, collections, failures.
  stage_queued: 'waiting', stage_starting: 'starting', stage_fetching: 'fetching the file', stage_probing: 'reading the file',
  stage_voice_activity: 'finding speech', stage_speech_recognition: 'recognising speech', stage_shot_detection: 'finding shots',
  stage_on_screen_text: 'reading on-screen text', stage_visual_tags: 'tagging pictures', stage_decoding_image: 'decoding the picture',
  stage_faces: 'finding faces', stage_episodes: 'finding chapters', stage_summaries: 'summarising', stage_thumbnails: 'making thumbnails',
  stage_text_vectors: 'making the text searchable', stage_storing: 'storing', stage_counting_files: 'counting files', stage_checking_files: 'checking files',
  stage_waiting_for_files: 'waiting for files still being written', stage_removing_deleted_files: 'removing deleted files',
  stage_downloading: 'downloading', stage_indexed: 'done', stage_done: 'done', stage_failed: 'failed',
  taskIndex: 'Indexing “{0}” into {1}', taskAnalyze: 'Analysing “{0}”', taskScan: 'Scanning the folder “{0}” of {1}', taskReindex: 'Re-indexing {0} of {1}',
  taskReindexAll: 'Re-indexing everything in {0}', taskModelPull: 'Installing the model {0}', taskClusters: 'Grouping results for “{0}” in {1}',
  taskSuggestions: 'Suggesting topics for {0}', item1: '1 item', itemsN: '{0} items',
  err_not_media: '“{0}” is not a video, audio file or picture vidx can read.', err_empty: '“{0}” is empty.',
  err_truncated: '“{0}” is cut off: part of the file is missing.', err_no_streams: '“{0}” has neither sound nor picture.',
  err_refers_elsewhere: '“{0}” is a playlist or a list of other files; add the files themselves.', err_outside_roots: '“{0}” lies outside the folders vidx may read.',
  err_not_found: '“{0}” does not exist (any more).', err_not_a_file: '“{0}” is not a file.', err_unreachable: '“{0}” cannot be reached.',
  err_network: 'The download of “{0}” broke off.', err_timeout: 'The download of “{0}” took too long.', err_too_large: '“{0}” is larger than allowed.',
  err_subtitles: 'subtitles: read with the video of the same name', err_broken_link: '“{0}” is a link to nothing.', err_unreadable_folder: 'The folder “{0}” cannot be read.', err_still_written: '“{0}” was still being written; the next scan tries again.',
  err_collection_deleted: 'Its collection was deleted.', err_interrupted: 'The server stopped while it ran.', err_tool_failed: 'ffmpeg broke off while reading “{0}”.',
  moreOptions: 'More options', identifier: 'Identifier (used in links)', identifierHint: 'Made from the name; change it if you like.',
  noCollectionsYet: 'No collections yet. Create one below: a name is enough. Then add videos or a folder.',
  emptyCollection: 'Nothing here yet. Add videos, or a folder on this machine that vidx keeps in step.',
  allCollections: 'All collections', inCollection: 'in {0}', searchingIn: 'searching {0} of {1} collections…',
  models: 'Models', modelsIntro: 'What vidx can recognise depends on the models on this machine. Models are downloaded once, then everything runs offline.',
  cap_asr: 'Speech recognition', cap_image_text: 'Visual tags and picture search', cap_text_embedding: 'Search by meaning', cap_face_embedding: 'Faces',
  cap_ocr: 'On-screen text', cap_ocr_german: 'German letters on screen', cap_vad: 'Speech detection', cap_face_detection: 'Face detection',
  install: 'Install', remove: 'Remove', installed: 'installed', notInstalled: 'not installed', partlyInstalled: 'partly downloaded', inUse: 'in use',
  shipped: 'comes with vidx', installing: 'installing {0}%', sizeOf: '{0}', licence: 'licence: {0}',
  confirmRemoveModel: 'Remove the model “{0}”?', removeModelBody: 'Its files ({0}) are deleted from this machine. What it recognised in indexed videos stays; new videos are indexed without it until it is installed again.',
  noSpeech: 'Speech recognition is not installed: what is said in videos without subtitles cannot be found. Subtitles are used where there are some.',
  installInModels: 'Install it under Models.', askAdmin: 'An admin can install it.',
  noFaceModel: 'The face model is not installed, so no faces are found.', unscanned: '{0} items were indexed without looking for faces (before faces were on, or without the model).', unscanned1: '1 item was indexed without looking for faces (before faces were on, or without the model).',
  reindexThem: 'Re-index them', reindexQueued: 'Re-indexing was queued.', seeTasks: 'See tasks',
  failedFiles: 'Files that failed', skippedFiles: 'Skipped', scanCounts: 'found {0} · added {1} · changed {2} · moved {3} · removed {4} · unchanged {5} · skipped {6} · failed {7}',
  deleteCollectionTitle: 'Delete the collection “{0}”?', deleteCollectionBody: 'Everything indexed in it is removed from vidx: transcripts, chapters, thumbnails, people and uploaded copies. Files on this machine that were indexed from a path or a folder stay where they are.',
  deleteFolderTitle: 'Remove the folder “{0}”?', deleteFolderBody: 'Its items leave this collection. The folder and its files on disk are not touched.',
  deleteTaskTitle: 'Delete this task?', deleteTaskBody: 'Only the task is deleted; if it is still running it is stopped first. Indexed items stay.',
  deletePersonTitle: 'Delete “{0}”?', deletePersonBody: 'The person, their face crops and face data are deleted. The videos stay.',
  firstRunHint: 'On its first start vidx wrote an admin key to {0}. Paste it here, or a key made with “vidx keys create”.',
  appName: 'vidx', signIn: 'Sign in', signOut: 'Sign out', apiKey: 'API key', remember: 'Remember on this device',
  signInHint: 'On its first start vidx writes an admin key to admin.key in its data folder (usually ~/.local/share/vidx/admin.key; npm start prints where). Paste it here, or a key made with “vidx keys create”.',
  keyStays: 'The key stays in this browser and goes only to this vidx server.',
  wrongKey: 'This key is not known to this server.', language: 'Language', loading: 'Loading…',
  nav: 'Main', collections: 'Collections', search: 'Search', explore: 'Explore', add: 'Add videos', tasks: 'Tasks',
  myCollections: 'My collections', publicCollections: 'Public collections', none: 'Nothing here yet.',
  newCollection: 'New collection', collectionId: 'Identifier (letters, digits, - and _)', name: 'Name', description: 'Description',
  isPublic: 'Public', create: 'Create', rename: 'Rename', save: 'Save', cancel: 'Cancel', delete: 'Delete',
  makePublic: 'Make public', makePrivate: 'Make private', open: 'Open', public: 'public', private: 'private',
  confirmDeleteCollection: 'Delete the collection “{0}” and everything indexed in it?', confirmDeleteItem: 'Remove “{0}” from this collection?',
  confirmDeleteTask: 'Delete this task?', items: 'Items', more: 'Show more', indexing: 'indexing', indexed: 'indexed', queued: 'queued',
  type_video: 'video', type_audio: 'audio', type_image: 'image', collection: 'Collection', chooseCollection: 'Choose a collection first.',
  searchLabel: 'Search the collection', searchPlaceholder: 'What happens, what is said or shown…', searchButton: 'Search',
  results: '{0} moments', result1: '1 moment', noResults: 'No moment matches.', showingFor: 'Showing results for {0}', at: 'at {0}', play: 'Play',
  transcript: 'Transcript', transcriptLanguage: 'Transcript language', unknownLanguage: 'unknown language', chapters: 'Chapters', onScreen: 'On-screen text', summary: 'Summary', tags: 'Tags', timeline: 'Chapters on the timeline',
  noSource: 'This item has no source the page can play here.', openSource: 'Open the source', copyLink: 'Link to this moment', copied: 'Link copied',
  back: 'Back', noTranscript: 'No transcript.', clusters: 'Topics in the results', clusterQuery: 'Explore a question', suggestions: 'Ideas from this collection',
  exploring: 'Grouping the moments…', dropHere: 'Drop videos, audio or pictures here', chooseFiles: 'Choose files', indexLanguage: 'Spoken language',
  uploading: 'uploading {0}%', uploaded: 'uploaded, queued', failed: 'failed', completed: 'completed', running: 'running',
  retry: 'Retry', stage: 'Stage', progress: 'Progress', refresh: 'Refresh', taskCounts: '{0} tasks', noTasks: 'No tasks.',
  theme: 'Theme follows your system setting.', duration: 'Duration', skipTo: 'Skip to content', deleted: 'Deleted.',
  folders: 'Folders on this machine', folderPath: 'Folder path on the server', recursive: 'Include subfolders', watchFolder: 'Watch for changes',
  addFolder: 'Add folder', scanNow: 'Scan again', scanned: 'last scanned {0}', scanDone: 'found {0} · added {1} · failed {2}',
  confirmDeleteFolder: 'Remove the folder “{0}” and its items from this collection?', filters: 'Filters', mediaType: 'Type', anyType: 'any',
  capturedAfter: 'Taken after', capturedBefore: 'Taken before',
  people: 'People', facesOn: 'Find faces in this collection', facesExplain: 'Faces are biometric data. They are found and grouped on this machine only; turning this off deletes every face and person of the collection.',
  confirmFacesOff: 'Turn faces off and delete every face and person of “{0}”?', noPeople: 'No people found yet: faces are looked for when videos are indexed (re-index to look in earlier ones).',
  unnamed: 'Unnamed', personName: 'Name of this person', faceCounts: '{0} faces · {1} videos', moments: 'Moments', mergeInto: 'Same person as…', merge: 'Merge',
  confirmDeletePerson: 'Delete this person and all their face data?', momentsOf: 'Moments of {0}', allPeople: 'All people',
  close: 'Close', error: 'Something went wrong: {0}',
  fileDate: 'file date {0}', fileDateHint: 'The file does not say when it was recorded; this is the date of the file itself.',
  takenHint: 'When it was recorded, as the file states it.',
  nameDateHint: 'When it was recorded, as the file name states it (the clock time in the server’s time zone).',
  // Search by picture, more like this, duplicates (issue 26).
  pictureButton: 'Search by picture', pastedPicture: 'pasted picture', removePicture: 'Remove the picture {0}',
  likeWhat: '“{0}” at {1}', likeWhatPhoto: '“{0}”', removeLike: 'Stop searching like {0}', moreLike: 'More like this',
  pictureHintPrints: 'Drop, paste or pick a picture to find where it is from: matched by fingerprint (copies, screenshots, resized frames).',
  pictureHintModel: 'Drop, paste or pick a picture to find where it is from: matched by fingerprint and by what it shows (image–text model).',
  pictureModelLink: 'Install the image–text model to match by what it shows too.',
  notAPicture: '“{0}” is not a picture vidx can search by (JPEG, PNG, WebP, AVIF, HEIF, TIFF or GIF).', pictureTooLarge: '“{0}” is larger than 32 MB.',
  pictureLost: 'The picture of this search is no longer here (pictures are not kept in links). Drop, paste or pick it again.',
  searchPlaceholderWith: 'Add words (optional)…', likeHeading: 'Moments like', pictureHeading: 'Moments that look like “{0}”', noLookAlike: 'Nothing looks alike.',
  duplicates: 'Duplicates', duplicatesIntro: 'Each group holds copies of one video or photo. The copy marked Keep is the one to keep: the longest (a trimmed part never beats its whole), then the most pixels, then the highest bitrate, then the original.',
  noDuplicates: 'No copies found. vidx looks for re-encoded, resized and trimmed copies of a video (at least 60 % of the shorter one, in the same order) and for near-identical photos. Videos that only look alike, such as slides on one template, are not copies.',
  places: 'Places', placesOf: 'Places · {0}', placeItems1: '1 item', placeItems: '{0} items', detailPlace: 'Place',
  noPlaces: 'No places yet: photos and videos with GPS are placed when they are indexed (phones write it when location is on for the camera).',
  placesCredit: 'Place names from GeoNames, CC BY 4.0. Looked up on this machine; nothing is sent anywhere.', nearPlace: 'Near {0}', showAllItems: 'Show all items',
  copiesAlike: '{0} copies · {1} % alike', keep: 'Keep', keepHint: 'The best copy of this group',
  keep_longest: 'The longest copy: the others show only part of it', keep_higher_resolution: 'The copy with the most pixels',
  keep_higher_bitrate: 'The copy with the most data per second: the others are re-encoded more strongly',
  keep_original: 'The copies look the same; this one is older (or was indexed first), so it is likely the original', resolution: 'Resolution', inOthers: 'In the other copies',
  leastSimilar: 'At least alike', similarDefault: '{0} % (default)', groupCount: '{0} groups of copies', groupCount1: '1 group of copies',
  deleteCopyBody: 'It leaves this collection with its transcript, chapters, thumbnails and share links; “{0}” stays. An item indexed from a file or a folder keeps its file on disk; the copy kept of an uploaded file is removed.',
  // Player, photos, grid tools and sharing (issue 23, points 3, 8, 9, 10).
  playNow: 'Play', waveform: 'Waveform of the sound', skipToChapters: 'Skip to chapters',
  photoFull: 'Full size', photoOpen: 'Open the picture on its own',
  itemDetails: 'Details', itemTitle: 'Title', detailSize: 'Size', detailDate: 'Date', inFolder: 'In its folder',
  recordedOn: 'recorded {0}', renamed: 'Renamed.',
  shareSection: 'Share', shareExplain: 'Anyone with the link can watch this item from the chosen moment, without a key, until the link expires. Chapters and transcript come along; nothing else of the collection.',
  shareExplainPhoto: 'Anyone with the link can see this picture, without a key, until the link expires; nothing else of the collection.',
  shareFor: 'The link works for', oneDay: '1 day', sevenDays: '7 days', shareCreate: 'Share from {0}', shareCreatePhoto: 'Share this picture',
  shareLink: 'Link to give', copyShareLink: 'Copy', shareLinks: 'Links that work now', shareLinkFrom: 'Link from {0}', shareLinkPhoto: 'Link to the picture',
  expires: 'expires {0}', revokeShare: 'Revoke', revokeTitle: 'Revoke this link?', revokeBody: '{0} stops working at once, for everyone who has it.', revoked: 'Link revoked.',
  sharedTitle: 'Shared with you', shareUntil: 'This link works until {0}.', shareGone: 'This link does not work (any more)',
  shareGoneHint: 'It is unknown, has expired or was revoked by the person who shared it. Ask them for a new link.',
  gridTools: 'Order and filter', sortBy: 'Sort by', sortOrder: 'Order', sortCaptured: 'Date taken', sortName: 'Name', sortDuration: 'Duration', sortAdded: 'Date added',
  newestFirst: 'Newest first', oldestFirst: 'Oldest first', aToZ: 'A to Z', zToA: 'Z to A', longestFirst: 'Longest first', shortestFirst: 'Shortest first',
  showType: 'Show', allTypes: 'Everything', videos: 'Videos', audios: 'Audio', pictures: 'Pictures',
  itemCount: '{0} items', itemCount1: '1 item', noneOfType: 'No items of this type.',
  selection: 'Selection', selectItem: 'Select {0}', selectAllShown: 'Select all shown ({0})', selectedCount: '{0} selected', clearSelection: 'Clear selection',
  reindexSelected: 'Re-index', deleteSelected: 'Delete…',
  deleteOneTitle: 'Delete “{0}”?', deleteManyTitle: 'Delete {0} items?', deleteMany: 'Delete {0} items',
  deleteItemsBody: 'They leave this collection with their transcripts, chapters, thumbnails and share links. Items indexed from a file or a folder keep their files on disk; the copies kept of uploaded files are removed.',
  deletedMany: '{0} items deleted.', deleteFailed: '{0} items could not be deleted.',
  gridReindexQueued: 'Re-indexing {0} items was queued.', gridReindexQueued1: 'Re-indexing 1 item was queued.', followInTasks: 'Follow it in Tasks',
  // Issue 27: workers of the job queue.
  stage_waiting_for_worker: 'waiting for a worker', workers: 'Workers', onWorker: 'on {0}', workerLocal: 'this server',
  queueDown: 'The job queue ({0}) cannot be reached: new analyses wait until it is back. Search keeps working.',
  noWorkers: 'No worker is running: analyses wait until one starts (vidx worker).',
  workerBusy: 'busy: {0} of {1} jobs', workerIdle: 'idle, takes {0} at once', workerNoJobs: 'takes no jobs: its models differ from the server’s', workerSeen: 'last seen {0}',
};

type Dict = typeof en;
/** A text's name. */
export type TextKey = keyof Dict;

const de: Dict = {
  // Issue 23 (Texte des Leads): Schritte, Aufgaben in Worten, Fehler nach Code, Modelle, Sammlungen, Fehlschläge.
  stage_queued: 'wartet', stage_starting: 'beginnt', stage_fetching: 'holt die Datei', stage_probing: 'liest die Datei',
  stage_voice_activity: 'sucht Sprache', stage_speech_recognition: 'erkennt Sprache', stage_shot_detection: 'sucht Schnitte',
  stage_on_screen_text: 'liest Text im Bild', stage_visual_tags: 'verschlagwortet Bilder', stage_decoding_image: 'dekodiert das Bild',
  stage_faces: 'sucht Gesichter', stage_episodes: 'sucht Kapitel', stage_summaries: 'fasst zusammen', stage_thumbnails: 'macht Vorschaubilder',
  stage_text_vectors: 'macht den Text durchsuchbar', stage_storing: 'speichert', stage_counting_files: 'zählt Dateien', stage_checking_files: 'prüft Dateien',
  stage_waiting_for_files: 'wartet auf Dateien, die noch geschrieben werden', stage_removing_deleted_files: 'entfernt gelöschte Dateien',
  stage_downloading: 'lädt herunter', stage_indexed: 'fertig', stage_done: 'fertig', stage_failed: 'fehlgeschlagen',
  taskIndex: '„{0}“ wird in {1} indexiert', taskAnalyze: '„{0}“ wird analysiert', taskScan: 'Ordner „{0}“ von {1} wird durchsucht', taskReindex: '{0} von {1} werden neu indexiert',
  taskReindexAll: 'Alles in {0} wird neu indexiert', taskModelPull: 'Modell {0} wird installiert', taskClusters: 'Treffer für „{0}“ in {1} werden gruppiert',
  taskSuggestions: 'Themen für {0} werden vorgeschlagen', item1: '1 Eintrag', itemsN: '{0} Einträge',
  err_not_media: '„{0}“ ist kein Video, keine Audiodatei und kein Bild, das vidx lesen kann.', err_empty: '„{0}“ ist leer.',
  err_truncated: '„{0}“ ist abgeschnitten: Ein Teil der Datei fehlt.', err_no_streams: '„{0}“ hat weder Ton noch Bild.',
  err_refers_elsewhere: '„{0}“ ist eine Wiedergabeliste oder Liste anderer Dateien; füge die Dateien selbst hinzu.', err_outside_roots: '„{0}“ liegt außerhalb der Ordner, die vidx lesen darf.',
  err_not_found: '„{0}“ gibt es nicht (mehr).', err_not_a_file: '„{0}“ ist keine Datei.', err_unreachable: '„{0}“ ist nicht erreichbar.',
  err_network: 'Das Herunterladen von „{0}“ brach ab.', err_timeout: 'Das Herunterladen von „{0}“ dauerte zu lange.', err_too_large: '„{0}“ ist größer als erlaubt.',
  err_subtitles: 'Untertitel: werden mit dem Video gleichen Namens gelesen', err_broken_link: '„{0}“ ist ein Link ins Leere.', err_unreadable_folder: 'Der Ordner „{0}“ lässt sich nicht lesen.', err_still_written: '„{0}“ wurde noch geschrieben; der nächste Durchlauf versucht es wieder.',
  err_collection_deleted: 'Ihre Sammlung wurde gelöscht.', err_interrupted: 'Der Server wurde währenddessen beendet.', err_tool_failed: 'ffmpeg brach beim Lesen von „{0}“ ab.',
  moreOptions: 'Weitere Optionen', identifier: 'Kennung (für Links)', identifierHint: 'Aus dem Namen gebildet; du kannst sie ändern.',
  noCollectionsYet: 'Noch keine Sammlungen. Lege unten eine an: Ein Name genügt. Dann füge Videos oder einen Ordner hinzu.',
  emptyCollection: 'Hier ist noch nichts. Füge Videos hinzu oder einen Ordner auf diesem Rechner, den vidx auf dem Laufenden hält.',
  allCollections: 'Alle Sammlungen', inCollection: 'in {0}', searchingIn: 'durchsucht {0} von {1} Sammlungen…',
  models: 'Modelle', modelsIntro: 'Was vidx erkennt, hängt von den Modellen auf diesem Rechner ab. Modelle werden einmal heruntergeladen, danach läuft alles offline.',
  cap_asr: 'Spracherkennung', cap_image_text: 'Bildschlagwörter und Bildsuche', cap_text_embedding: 'Suche nach Bedeutung', cap_face_embedding: 'Gesichter',
  cap_ocr: 'Text im Bild', cap_ocr_german: 'Deutsche Buchstaben im Bild', cap_vad: 'Spracherkennung (wo gesprochen wird)', cap_face_detection: 'Gesichtserkennung',
  install: 'Installieren', remove: 'Entfernen', installed: 'installiert', notInstalled: 'nicht installiert', partlyInstalled: 'teilweise geladen', inUse: 'in Gebrauch',
  shipped: 'kommt mit vidx', installing: 'installiert {0} %', sizeOf: '{0}', licence: 'Lizenz: {0}',
  confirmRemoveModel: 'Das Modell „{0}“ entfernen?', removeModelBody: 'Seine Dateien ({0}) werden von diesem Rechner gelöscht. Was es in indexierten Videos erkannt hat, bleibt; neue Videos werden ohne es indexiert, bis es wieder installiert ist.',
  noSpeech: 'Die Spracherkennung ist nicht installiert: Was in Videos ohne Untertitel gesagt wird, ist nicht auffindbar. Wo es Untertitel gibt, werden sie verwendet.',
  installInModels: 'Installiere sie unter Modelle.', askAdmin: 'Ein Admin kann sie installieren.',
  noFaceModel: 'Das Gesichtsmodell ist nicht installiert, daher werden keine Gesichter gefunden.', unscanned: '{0} Einträge wurden ohne Gesichtersuche indexiert (bevor Gesichter an waren oder ohne das Modell).', unscanned1: '1 Eintrag wurde ohne Gesichtersuche indexiert (bevor Gesichter an waren oder ohne das Modell).',
  reindexThem: 'Neu indexieren', reindexQueued: 'Neu-Indexierung ist eingereiht.', seeTasks: 'Zu den Aufgaben',
  failedFiles: 'Fehlgeschlagene Dateien', skippedFiles: 'Übersprungen', scanCounts: 'gefunden {0} · neu {1} · geändert {2} · verschoben {3} · entfernt {4} · unverändert {5} · übersprungen {6} · fehlgeschlagen {7}',
  deleteCollectionTitle: 'Die Sammlung „{0}“ löschen?', deleteCollectionBody: 'Alles darin Indexierte wird aus vidx entfernt: Transkripte, Kapitel, Vorschaubilder, Personen und hochgeladene Kopien. Dateien auf diesem Rechner, die über einen Pfad oder Ordner indexiert wurden, bleiben, wo sie sind.',
  deleteFolderTitle: 'Den Ordner „{0}“ entfernen?', deleteFolderBody: 'Seine Einträge verlassen diese Sammlung. Der Ordner und seine Dateien auf der Festplatte bleiben unberührt.',
  deleteTaskTitle: 'Diese Aufgabe löschen?', deleteTaskBody: 'Nur die Aufgabe wird gelöscht; läuft sie noch, wird sie vorher angehalten. Indexierte Einträge bleiben.',
  deletePersonTitle: '„{0}“ löschen?', deletePersonBody: 'Die Person, ihre Gesichtsausschnitte und Gesichtsdaten werden gelöscht. Die Videos bleiben.',
  firstRunHint: 'Beim ersten Start hat vidx einen Admin-Schlüssel nach {0} geschrieben. Füge ihn hier ein, oder einen mit „vidx keys create“ erzeugten.',
  appName: 'vidx', signIn: 'Anmelden', signOut: 'Abmelden', apiKey: 'API-Schlüssel', remember: 'Auf diesem Gerät merken',
  signInHint: 'Beim ersten Start schreibt vidx einen Admin-Schlüssel in admin.key im Datenordner (meist ~/.local/share/vidx/admin.key; npm start zeigt, wo). Füge ihn hier ein, oder einen mit „vidx keys create“ erzeugten.',
  keyStays: 'Der Schlüssel bleibt in diesem Browser und geht nur an diesen vidx-Server.',
  wrongKey: 'Diesen Schlüssel kennt der Server nicht.', language: 'Sprache', loading: 'Lädt…',
  nav: 'Hauptmenü', collections: 'Sammlungen', search: 'Suche', explore: 'Entdecken', add: 'Videos hinzufügen', tasks: 'Aufgaben',
  myCollections: 'Meine Sammlungen', publicCollections: 'Öffentliche Sammlungen', none: 'Noch nichts da.',
  newCollection: 'Neue Sammlung', collectionId: 'Kennung (Buchstaben, Ziffern, - und _)', name: 'Name', description: 'Beschreibung',
  isPublic: 'Öffentlich', create: 'Anlegen', rename: 'Umbenennen', save: 'Speichern', cancel: 'Abbrechen', delete: 'Löschen',
  makePublic: 'Öffentlich machen', makePrivate: 'Privat machen', open: 'Öffnen', public: 'öffentlich', private: 'privat',
  confirmDeleteCollection: 'Die Sammlung „{0}“ mit allem, was darin indexiert ist, löschen?', confirmDeleteItem: '„{0}“ aus dieser Sammlung entfernen?',
  confirmDeleteTask: 'Diese Aufgabe löschen?', items: 'Einträge', more: 'Mehr zeigen', indexing: 'wird indexiert', indexed: 'indexiert', queued: 'wartet',
  type_video: 'Video', type_audio: 'Audio', type_image: 'Bild', collection: 'Sammlung', chooseCollection: 'Wähle zuerst eine Sammlung.',
  searchLabel: 'Sammlung durchsuchen', searchPlaceholder: 'Was passiert, gesagt oder gezeigt wird…', searchButton: 'Suchen',
  results: '{0} Momente', result1: '1 Moment', noResults: 'Kein Moment passt.', showingFor: 'Ergebnisse für {0}', at: 'bei {0}', play: 'Abspielen',
  transcript: 'Transkript', transcriptLanguage: 'Sprache des Transkripts', unknownLanguage: 'unbekannte Sprache', chapters: 'Kapitel', onScreen: 'Text im Bild', summary: 'Zusammenfassung', tags: 'Schlagwörter', timeline: 'Kapitel auf der Zeitleiste',
  noSource: 'Für diesen Eintrag gibt es hier keine abspielbare Quelle.', openSource: 'Quelle öffnen', copyLink: 'Link zu diesem Moment', copied: 'Link kopiert',
  back: 'Zurück', noTranscript: 'Kein Transkript.', clusters: 'Themen in den Treffern', clusterQuery: 'Eine Frage erkunden', suggestions: 'Ideen aus dieser Sammlung',
  exploring: 'Momente werden gruppiert…', dropHere: 'Videos, Audio oder Bilder hier ablegen', chooseFiles: 'Dateien wählen', indexLanguage: 'Gesprochene Sprache',
  uploading: 'lädt hoch {0} %', uploaded: 'hochgeladen, wartet', failed: 'fehlgeschlagen', completed: 'fertig', running: 'läuft',
  retry: 'Wiederholen', stage: 'Schritt', progress: 'Fortschritt', refresh: 'Aktualisieren', taskCounts: '{0} Aufgaben', noTasks: 'Keine Aufgaben.',
  theme: 'Das Farbschema folgt der Systemeinstellung.', duration: 'Dauer', skipTo: 'Zum Inhalt springen', deleted: 'Gelöscht.',
  folders: 'Ordner auf diesem Rechner', folderPath: 'Ordnerpfad auf dem Server', recursive: 'Mit Unterordnern', watchFolder: 'Auf Änderungen achten',
  addFolder: 'Ordner hinzufügen', scanNow: 'Erneut durchsuchen', scanned: 'zuletzt durchsucht {0}', scanDone: 'gefunden {0} · neu {1} · fehlgeschlagen {2}',
  confirmDeleteFolder: 'Den Ordner „{0}“ und seine Einträge aus dieser Sammlung entfernen?', filters: 'Filter', mediaType: 'Typ', anyType: 'alle',
  capturedAfter: 'Aufgenommen nach', capturedBefore: 'Aufgenommen vor',
  people: 'Personen', facesOn: 'Gesichter in dieser Sammlung finden', facesExplain: 'Gesichter sind biometrische Daten. Sie werden nur auf diesem Rechner gefunden und gruppiert; Ausschalten löscht alle Gesichter und Personen der Sammlung.',
  confirmFacesOff: 'Gesichter ausschalten und alle Gesichter und Personen von „{0}“ löschen?', noPeople: 'Noch keine Personen: Gesichter werden beim Indizieren gesucht (neu indizieren, um frühere Videos zu durchsuchen).',
  unnamed: 'Ohne Namen', personName: 'Name dieser Person', faceCounts: '{0} Gesichter · {1} Videos', moments: 'Momente', mergeInto: 'Dieselbe Person wie…', merge: 'Zusammenführen',
  confirmDeletePerson: 'Diese Person und alle ihre Gesichtsdaten löschen?', momentsOf: 'Momente von {0}', allPeople: 'Alle Personen',
  close: 'Schließen', error: 'Etwas ging schief: {0}',
  fileDate: 'Dateidatum {0}', fileDateHint: 'Die Datei sagt nicht, wann sie aufgenommen wurde; das ist das Datum der Datei selbst.',
  takenHint: 'Wann es aufgenommen wurde, wie es in der Datei steht.',
  nameDateHint: 'Wann es aufgenommen wurde, wie es im Dateinamen steht (die Uhrzeit in der Zeitzone des Servers).',
  // Suche mit Bild, Ähnliches, Duplikate (Issue 26).
  pictureButton: 'Mit Bild suchen', pastedPicture: 'eingefügtes Bild', removePicture: 'Bild {0} entfernen',
  likeWhat: '„{0}“ bei {1}', likeWhatPhoto: '„{0}“', removeLike: 'Nicht mehr wie {0} suchen', moreLike: 'Ähnliches finden',
  pictureHintPrints: 'Zieh ein Bild hierher, füge es ein oder wähle es aus, um zu finden, woher es stammt: erkannt am Fingerabdruck (Kopien, Bildschirmfotos, verkleinerte Bilder).',
  pictureHintModel: 'Zieh ein Bild hierher, füge es ein oder wähle es aus, um zu finden, woher es stammt: erkannt am Fingerabdruck und an dem, was es zeigt (Bild-Text-Modell).',
  pictureModelLink: 'Installiere das Bild-Text-Modell, um auch nach dem Gezeigten zu suchen.',
  notAPicture: '„{0}“ ist kein Bild, mit dem vidx suchen kann (JPEG, PNG, WebP, AVIF, HEIF, TIFF oder GIF).', pictureTooLarge: '„{0}“ ist größer als 32 MB.',
  pictureLost: 'Das Bild dieser Suche ist nicht mehr da (Bilder stehen nicht im Link). Zieh es erneut hierher, füge es ein oder wähle es aus.',
  searchPlaceholderWith: 'Wörter dazu (optional)…', likeHeading: 'Momente wie', pictureHeading: 'Momente, die aussehen wie „{0}“', noLookAlike: 'Nichts sieht ähnlich aus.',
  duplicates: 'Duplikate', duplicatesIntro: 'Jede Gruppe enthält Kopien eines Videos oder Fotos. Die mit „Behalten“ markierte Kopie ist die, die man behält: die längste (ein ausgeschnittener Teil schlägt nie das Ganze), dann die meisten Pixel, dann die höchste Bitrate, dann das Original.',
  noDuplicates: 'Keine Kopien gefunden. vidx sucht neu kodierte, verkleinerte und gekürzte Kopien eines Videos (mindestens 60 % des kürzeren, in derselben Reihenfolge) und fast gleiche Fotos. Videos, die sich nur ähneln, etwa Folien mit derselben Vorlage, sind keine Kopien.',
  places: 'Orte', placesOf: 'Orte · {0}', placeItems1: '1 Eintrag', placeItems: '{0} Einträge', detailPlace: 'Ort',
  noPlaces: 'Noch keine Orte: Fotos und Videos mit GPS bekommen ihren Ort beim Indexieren (Handys schreiben ihn, wenn die Kamera den Standort verwenden darf).',
  placesCredit: 'Ortsnamen von GeoNames, CC BY 4.0. Auf diesem Rechner nachgeschlagen; nichts wird irgendwohin gesendet.', nearPlace: 'In der Nähe von {0}', showAllItems: 'Alle Einträge zeigen',
  copiesAlike: '{0} Kopien · {1} % ähnlich', keep: 'Behalten', keepHint: 'Die beste Kopie dieser Gruppe',
  keep_longest: 'Die längste Kopie: die anderen zeigen nur einen Teil davon', keep_higher_resolution: 'Die Kopie mit den meisten Pixeln',
  keep_higher_bitrate: 'Die Kopie mit den meisten Daten pro Sekunde: die anderen sind stärker neu kodiert',
  keep_original: 'Die Kopien sehen gleich aus; diese ist älter (oder wurde zuerst indexiert), also wohl das Original', resolution: 'Auflösung', inOthers: 'In den anderen Kopien',
  leastSimilar: 'Mindestens ähnlich', similarDefault: '{0} % (Standard)', groupCount: '{0} Gruppen von Kopien', groupCount1: '1 Gruppe von Kopien',
  deleteCopyBody: 'Er verlässt diese Sammlung mit Transkript, Kapiteln, Vorschaubildern und geteilten Links; „{0}“ bleibt. Ein aus einer Datei oder einem Ordner indizierter Eintrag behält seine Datei auf der Festplatte; die aufbewahrte Kopie einer hochgeladenen Datei wird entfernt.',
  // Player, Fotos, Rasterwerkzeuge und Teilen (Issue 23, Punkte 3, 8, 9, 10).
  playNow: 'Abspielen', waveform: 'Wellenform des Tons', skipToChapters: 'Zu den Kapiteln springen',
  photoFull: 'Volle Größe', photoOpen: 'Bild einzeln öffnen',
  itemDetails: 'Details', itemTitle: 'Titel', detailSize: 'Größe', detailDate: 'Datum', inFolder: 'Im Ordner',
  recordedOn: 'aufgenommen {0}', renamed: 'Umbenannt.',
  shareSection: 'Teilen', shareExplain: 'Wer den Link hat, kann diesen Eintrag ab dem gewählten Moment ansehen, ohne Schlüssel, bis der Link abläuft. Kapitel und Transkript sind dabei, sonst nichts aus der Sammlung.',
  shareExplainPhoto: 'Wer den Link hat, kann dieses Bild sehen, ohne Schlüssel, bis der Link abläuft; sonst nichts aus der Sammlung.',
  shareFor: 'Der Link gilt', oneDay: '1 Tag', sevenDays: '7 Tage', shareCreate: 'Ab {0} teilen', shareCreatePhoto: 'Dieses Bild teilen',
  shareLink: 'Link zum Weitergeben', copyShareLink: 'Kopieren', shareLinks: 'Gültige Links', shareLinkFrom: 'Link ab {0}', shareLinkPhoto: 'Link zum Bild',
  expires: 'läuft ab {0}', revokeShare: 'Widerrufen', revokeTitle: 'Diesen Link widerrufen?', revokeBody: '{0} funktioniert sofort nicht mehr, für alle, die ihn haben.', revoked: 'Link widerrufen.',
  sharedTitle: 'Mit dir geteilt', shareUntil: 'Dieser Link gilt bis {0}.', shareGone: 'Dieser Link funktioniert nicht (mehr)',
  shareGoneHint: 'Er ist unbekannt, abgelaufen oder wurde von der Person, die ihn geteilt hat, widerrufen. Bitte sie um einen neuen Link.',
  gridTools: 'Sortieren und filtern', sortBy: 'Sortieren nach', sortOrder: 'Reihenfolge', sortCaptured: 'Aufnahmedatum', sortName: 'Name', sortDuration: 'Dauer', sortAdded: 'Hinzugefügt',
  newestFirst: 'Neueste zuerst', oldestFirst: 'Älteste zuerst', aToZ: 'A bis Z', zToA: 'Z bis A', longestFirst: 'Längste zuerst', shortestFirst: 'Kürzeste zuerst',
  showType: 'Zeigen', allTypes: 'Alles', videos: 'Videos', audios: 'Audio', pictures: 'Bilder',
  itemCount: '{0} Einträge', itemCount1: '1 Eintrag', noneOfType: 'Keine Einträge dieser Art.',
  selection: 'Auswahl', selectItem: '{0} auswählen', selectAllShown: 'Alle gezeigten auswählen ({0})', selectedCount: '{0} ausgewählt', clearSelection: 'Auswahl aufheben',
  reindexSelected: 'Neu indexieren', deleteSelected: 'Löschen…',
  deleteOneTitle: '„{0}“ löschen?', deleteManyTitle: '{0} Einträge löschen?', deleteMany: '{0} Einträge löschen',
  deleteItemsBody: 'Sie verlassen diese Sammlung mit Transkripten, Kapiteln, Vorschaubildern und geteilten Links. Aus einer Datei oder einem Ordner indizierte Einträge behalten ihre Dateien auf der Festplatte; die aufbewahrten Kopien hochgeladener Dateien werden entfernt.',
  deletedMany: '{0} Einträge gelöscht.', deleteFailed: '{0} Einträge konnten nicht gelöscht werden.',
  gridReindexQueued: 'Neu-Indexierung von {0} Einträgen ist eingereiht.', gridReindexQueued1: 'Neu-Indexierung von 1 Eintrag ist eingereiht.', followInTasks: 'In Aufgaben verfolgen',
  stage_waiting_for_worker: 'wartet auf einen Worker', workers: 'Worker', onWorker: 'auf {0}', workerLocal: 'diesem Server',
  queueDown: 'Die Auftragswarteschlange ({0}) ist nicht erreichbar: neue Analysen warten, bis sie wieder da ist. Die Suche geht weiter.',
  noWorkers: 'Kein Worker läuft: Analysen warten, bis einer startet (vidx worker).',
  workerBusy: 'beschäftigt: {0} von {1} Aufträgen', workerIdle: 'frei, nimmt {0} gleichzeitig', workerNoJobs: 'nimmt keine Aufträge: seine Modelle weichen von denen des Servers ab', workerSeen: 'zuletzt gesehen {0}',
};

/** The languages the page speaks. */
export type Lang = 'en' | 'de';
const DICTS: Record<Lang, Dict> = { en, de };
const listeners = new Set<(l: Lang) => void>();

function initial(): Lang {
  const saved = localStorage.getItem('vidx.lang');
  if (saved === 'en' || saved === 'de') return saved;
  return navigator.languages.some((l) => l.toLowerCase().startsWith('de')) && !navigator.language.toLowerCase().startsWith('en') ? 'de' : 'en';
}

let current: Lang = initial();
document.documentElement.lang = current;

/**
 * A text in the current language; `{0}`, `{1}` … are replaced by the arguments.
 * @example
 * t('results', 3); // '3 moments'
 */
export function t(key: TextKey, ...args: (string | number)[]): string {
  const text = DICTS[current][key] as string | undefined;
  if (text === undefined) throw new Error(`no text ${String(key)}`);
  return text.replace(/\{(\d)\}/g, (_, i: string) => String(args[Number(i)] ?? ''));
}

/**
 * The page's language now (for requests: the server answers errors in it).
 * @example
 * headers['accept-language'] = lang();
 */
export function lang(): Lang {
  return current;
}

/**
 * Switches the language and redraws every component that uses `useLang`.
 * @example
 * setLang('de');
 */
export function setLang(lang: Lang): void {
  current = lang;
  localStorage.setItem('vidx.lang', lang);
  document.documentElement.lang = lang;
  for (const l of listeners) l(lang);
}

/**
 * The current language; the calling component redraws when it changes.
 * @example
 * const lang = useLang();
 */
export function useLang(): Lang {
  const [lang, set] = useState(current);
  useEffect(() => {
    listeners.add(set);
    return () => void listeners.delete(set);
  }, []);
  return lang;
}
