import type { WorkCounts } from '../services/work-gate.js';
import type { AllowList } from '../media/index.js';
import type { OpenAPIHono } from '@hono/zod-openapi';
import type { Caller } from '../services/caller.js';
import type { CollectionService } from '../services/collections.js';
import type { SubmissionService } from '../services/submissions.js';
import type { DuplicateService } from '../services/duplicates/service.js';
import type { ItemAnalysisService } from '../services/item-analysis.js';
import type { ItemService } from '../services/items.js';
import type { KeyService } from '../services/keys.js';
import type { Searcher } from '../services/search/index.js';
import type { PictureFileReader } from '../services/search/picture-file.js';
import type { ExploreService } from '../services/explore/index.js';
import type { SignedFileLinks } from './file-links.js';
import type { TaskService } from '../services/tasks.js';
import type { FolderService } from '../services/folders/service.js';
import type { PeopleService } from '../services/people/service.js';
import type { VoiceService } from '../services/people/voices.js';
import type { AskService } from '../services/ask/service.js';
import type { TimelineService } from '../services/timeline/service.js';
import type { WebhookService } from '../services/webhooks.js';
import type { ServedFiles } from '../services/served-files.js';
import type { ModelService } from '../services/models.js';
import type { ShareService } from '../services/shares.js';
import type { JobBroker, QueueState } from '../services/jobs/broker.js';
import type { FormLimits } from './middleware/form-body/index.js';
import type { LogFn } from './middleware/request-log/index.js';

/** Per-request variables every route can read. */
export type AppEnv = { Variables: { caller: Caller; requestId: string } };

/** The app type routes attach to. */
export type App = OpenAPIHono<AppEnv>;

/** What the HTTP layer needs from the rest of vidx: services, limits and a few facts. */
export interface HttpDeps {
  version: string;
  keys: KeyService;
  collections: CollectionService;
  items: ItemService;
  tasks: TaskService;
  webhooks: WebhookService;
  submissions: SubmissionService;
  search: Searcher;
  /** Reads a query picture named by POST /search `image_path` (inside the media roots, never the data dir). */
  pictureFile: PictureFileReader;
  explore: ExploreService;
  analysis: ItemAnalysisService;
  folders: FolderService;
  people: PeopleService;
  voices: VoiceService;
  ask: AskService;
  /** Events, on this day and the timeline (issue 47). */
  timeline: TimelineService;
  duplicates: DuplicateService;
  links: SignedFileLinks;
  servedFiles: ServedFiles;
  models: ModelService;
  shares: ShareService;
  /** The job queue (VIDX_QUEUE_URL) the job endpoints talk to; null without one. */
  jobs: JobBroker | null;
  /** The built web page served at `/` (missing when it was never built). */
  webDir?: string;
  form: FormLimits;
  /** Host names requests may carry besides loopback ones (VIDX_ALLOWED_HOSTS, the public URL, the bound address). */
  hosts: AllowList;
  /** Extra facts for GET /health (capabilities, tools); computed by the caller. */
  health: () => Record<string, unknown> & { work: WorkCounts; workers: number; queue: QueueState | null; capabilities: Record<string, { available: boolean; model?: string; reason?: string }>; admin_key_file?: string | null; admin_key_source?: 'env' | 'file' | 'existing'; answer_model: { loaded: boolean }; search: { threads: number; ready: number; answered: number }; picture_search: { fingerprints: true; image_text: boolean } };
  log: LogFn;
  /** Aborted when the server starts to stop, so long waits inside a request (an MCP tool waiting for a task) end. */
  stopping?: AbortSignal;
}
