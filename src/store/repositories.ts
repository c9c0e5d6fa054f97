import type { Db } from './connection.js';
import { KeyRepository } from './keys.js';
import { AnalysisJobRepository } from './jobs.js';
import { CollectionRepository } from './collections.js';
import { ItemRepository } from './items.js';
import { FolderRepository } from './folders.js';
import { SearchIndexRepository } from './search-index.js';
import { TextIndexRepository } from './text-index.js';
import { TaskRepository } from './tasks.js';
import { WebhookRepository } from './webhooks.js';
import { FaceRepository } from './faces.js';
import { FramePrintRepository } from './frame-prints.js';
import { ShareRepository } from './shares.js';
import { AnalysisWarnings } from './analysis-warnings.js';
import type { VectorAnnIndexes } from './vector-ann.js';
import { SubtitleLineRepository } from './subtitle-lines.js';
import { StagingRepository } from './staging.js';
import { VoiceRepository } from './voices.js';
import { StorageRepository } from './storage.js';
import { EventRepository } from './events.js';

/** The database handle and one repository per table group. */
export interface Store {
  db: Db;
  keys: KeyRepository;
  collections: CollectionRepository;
  items: ItemRepository;
  folders: FolderRepository;
  search: SearchIndexRepository;
  /** The per-collection text search tables. */
  text: TextIndexRepository;
  /** Lines of items' other subtitle tracks (languages besides the transcript's). */
  subtitles: SubtitleLineRepository;
  tasks: TaskRepository;
  webhooks: WebhookRepository;
  faces: FaceRepository;
  /** Voice tracks and the people's voice centres (off by default per collection). */
  voices: VoiceRepository;
  shares: ShareRepository;
  /** Perceptual fingerprints of keyframes and photos, and the look-alike pairs built from them. */
  prints: FramePrintRepository;
  /** Jobs of the analysis queue and their deliveries. */
  jobs: AnalysisJobRepository;
  /** Warnings the analyses left (a transcript skipped for want of a speech model). */
  warnings: AnalysisWarnings;
  /** Items written in slices, and replaced ones removed so: hidden until shown (staging.ts). */
  staging: StagingRepository;
  /** Events (items close in time and place) and the timeline's counts. */
  events: EventRepository;
  /** The files kept under the data dir beside the rows (item folders, face crops, uploads). */
  storage: StorageRepository;
  close(): void;
}

/**
 * The part of the store a service uses: it is handed only the repositories it names, so a reader sees what
 * it touches and a test can give it just those.
 * @example
 * constructor(private readonly store: Repos<'items' | 'collections'>) {}
 */
export type Repos<K extends keyof Store> = Pick<Store, K>;

/**
 * The repositories over an open connection. `ann`: the vector indexes the writer keeps in step, or null for a
 * connection that keeps none (a search thread's: it asks the request thread for nearest vectors). Kept apart
 * from openStore so a thread can build a store without loading usearch, whose ESM build never finishes
 * loading in a worker thread.
 * @example
 * const store = storeOver(db, null, dataDir, () => db.close());
 */
export function storeOver(db: Db, ann: VectorAnnIndexes | null, dataDir: string, close: () => void): Store {
  const text = new TextIndexRepository(db);
  return {
    db,
    keys: new KeyRepository(db),
    collections: new CollectionRepository(db),
    items: new ItemRepository(db),
    folders: new FolderRepository(db),
    search: new SearchIndexRepository(db, text, ann),
    text,
    subtitles: new SubtitleLineRepository(db),
    tasks: new TaskRepository(db),
    webhooks: new WebhookRepository(db),
    faces: new FaceRepository(db),
    voices: new VoiceRepository(db),
    shares: new ShareRepository(db),
    prints: new FramePrintRepository(db),
    jobs: new AnalysisJobRepository(db),
    warnings: new AnalysisWarnings(db),
    staging: new StagingRepository(db),
    storage: new StorageRepository(dataDir),
    events: new EventRepository(db),
    close,
  };
}
