import type { TaskKind } from '../services/task-kinds.js';

/** Fixed paths of the kinds whose endpoint names no resource. */
const FIXED: Record<Exclude<TaskKind, 'folder_scan' | 'reindex' | 'model_pull'>, string> = {
  index: '/index',
  analyze: '/analyze',
  clusters: '/search_clusters',
  suggestions: '/collection_suggestions',
};

function field(data: unknown, name: string): string {
  const value = (data as Record<string, unknown> | null)?.[name];
  return typeof value === 'string' && value ? encodeURIComponent(value) : '-';
}

/**
 * The path of the endpoint a task came from (SPEC 2.4 `endpoint`), from its kind and input: a folder scan
 * names its collection and folder, a re-index its collection.
 * @example
 * taskEndpoint('folder_scan', { collection: 'trips', folder_id: '0193…' }); // '/collections/trips/folders/0193…/scan'
 * taskEndpoint('index', {}); // '/index'
 */
export function taskEndpoint(kind: TaskKind, data: unknown): string {
  if (kind === 'folder_scan') return `/collections/${field(data, 'collection')}/folders/${field(data, 'folder_id')}/scan`;
  if (kind === 'reindex') return `/collections/${field(data, 'collection')}/reindex`;
  if (kind === 'model_pull') return `/models/${field(data, 'model_id')}/pull`;
  return FIXED[kind];
}

/**
 * The kind a `GET /tasks?endpoint=` filter means: a fixed path (`/analyze` or `analyze`), a kind's own name,
 * or the pattern of a resource's path (`…/scan`, `…/reindex`); undefined when it names none.
 * @example
 * kindOfEndpoint('analyze'); // 'analyze'
 * kindOfEndpoint('/collections/trips/folders/x/scan'); // 'folder_scan'
 */
export function kindOfEndpoint(filter: string): TaskKind | undefined {
  const path = filter.startsWith('/') ? filter : `/${filter}`;
  const fixed = (Object.entries(FIXED) as [TaskKind, string][]).find(([, p]) => p === path);
  if (fixed) return fixed[0];
  if (/^\/collections\/[^/]+\/folders\/[^/]+\/scan$/.test(path) || path === '/folder_scan') return 'folder_scan';
  if (/^\/collections\/[^/]+\/reindex$/.test(path) || path === '/reindex') return 'reindex';
  if (/^\/models\/[^/]+\/pull$/.test(path) || path === '/model_pull') return 'model_pull';
  return undefined;
}
