import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Schemas, VidxClient } from '../client/index.js';
import { ApiError, apiClient, CliError, EXIT } from './client.js';
import { CLIENT_HELP, CLIENT_OPTIONS, clientFrom, output, parseFlags, runCommand } from './common.js';
import { describeScanResult } from './present.js';
import { reportTask } from './submit.js';
import { waitForTask } from './wait.js';

/** Flags of `folders add` and of `vidx index <folder>`. */
export const FOLDER_OPTIONS = {
  watch: { type: 'boolean', default: false },
  exclude: { type: 'string', multiple: true },
  'no-recursive': { type: 'boolean', default: false },
  'no-wait': { type: 'boolean', default: false },
  quiet: { type: 'boolean', short: 'q', default: false },
} as const;

/** Help lines of {@link FOLDER_OPTIONS}. */
export const FOLDER_HELP = `  --watch           keep watching the folder: new, changed, moved and deleted files are picked up by themselves
  --exclude GLOB    skip paths matching GLOB, relative to the folder (repeatable), e.g. '**/*.tmp' 'private/**'
  --no-recursive    only the folder itself, not its subfolders`;

const HELP = `Usage:
  vidx folders add <path> --collection C [--watch] [--exclude GLOB]... [--no-recursive] [--no-wait]
  vidx folders list --collection C
  vidx folders scan <folder_id> --collection C [--no-wait]
  vidx folders remove <folder_id> --collection C [--keep-items]

Folders bind a directory (inside the server's VIDX_MEDIA_ROOTS) to a collection: every video, audio file and
picture in it becomes an item; scans are incremental (moves and renames keep their item).

add      bind a folder and follow its first scan with a progress bar (a folder already bound is scanned again)
list     the collection's folders
scan     scan a folder now and follow the scan
remove   unbind a folder; its items leave the collection unless --keep-items

${FOLDER_HELP}
  --keep-items      (remove) leave the folder's items in the collection
  --no-wait         print the scan task id and return at once
  -q, --quiet       no progress on stderr

${CLIENT_HELP}`;

/** Follows a scan task with one progress bar (files done / total, current file) and prints its result. */
async function follow(api: VidxClient, taskId: string, values: { json?: boolean; quiet?: boolean; 'no-wait'?: boolean }): Promise<number> {
  if (values['no-wait']) return reportTask('folders', values.json, { taskId }, describeScanResult);
  if (!values.quiet) process.stderr.write(`scan task ${taskId}\n`);
  const task = await waitForTask(api, taskId, { stderr: process.stderr, quiet: values.quiet });
  return reportTask('folders', values.json, { taskId, task }, describeScanResult);
}

/**
 * Binds a local folder to a collection (POST /collections/{c}/folders) and follows its first scan;
 * `vidx index <folder>` and `vidx folders add` both come here.
 * @example
 * return addFolder(apiClient(client), 'trips', './phone', { watch: false, exclude: [], 'no-recursive': false });
 */
export async function addFolder(
  api: VidxClient,
  collection: string,
  path: string,
  values: { watch?: boolean; exclude?: string[]; 'no-recursive'?: boolean; json?: boolean; quiet?: boolean; 'no-wait'?: boolean },
): Promise<number> {
  const inCollection = { path: { collection_id: collection } };
  const body = { path: resolve(path), watch: Boolean(values.watch), recursive: !values['no-recursive'], exclude: values.exclude ?? [] };
  let folder: Schemas['Folder'];
  try {
    folder = await api.POST('/collections/{collection_id}/folders', { params: inCollection, body });
  } catch (err) {
    // The folder is already bound: running the same command again scans it (its settings stay as they are).
    const real = await realpath(body.path).catch(() => body.path);
    const known = err instanceof ApiError && err.status === 409 ? (await api.GET('/collections/{collection_id}/folders', { params: inCollection })).folders.find((f) => f.path === real) : undefined;
    if (!known) throw err;
    if (!values.quiet) process.stderr.write(`folder ${known.folder_id} is already bound (${known.path}); scanning it\n`);
    const { task_id } = await api.POST('/collections/{collection_id}/folders/{folder_id}/scan', { params: { path: { collection_id: collection, folder_id: known.folder_id } } });
    return follow(api, task_id, values);
  }
  if (!values.quiet) process.stderr.write(`folder ${folder.folder_id}: ${folder.path}${folder.watch ? ' (watched)' : ''}\n`);
  return follow(api, folder.scan_task_id!, values);
}

function table(rows: Schemas['Folder'][]): string {
  if (rows.length === 0) return 'no folders';
  return ['FOLDER_ID                             WATCH  LAST_SCAN                 PATH', ...rows.map((f) => `${f.folder_id.padEnd(36)}  ${(f.watch ? 'yes' : 'no').padEnd(5)}  ${(f.last_scan ?? 'never').padEnd(24)}  ${f.path}`)].join('\n');
}

/**
 * `vidx folders add|list|scan|remove`.
 * @example
 * process.exitCode = await foldersCommand(['add', './phone', '--collection', 'trips', '--watch']);
 */
export async function foldersCommand(argv: string[]): Promise<number> {
  return runCommand('folders', HELP, argv, async () => {
    const { values, positionals } = parseFlags(argv, {
      ...CLIENT_OPTIONS,
      ...FOLDER_OPTIONS,
      collection: { type: 'string', short: 'c' },
      'keep-items': { type: 'boolean', default: false },
    });
    const [action, arg, ...extra] = positionals;
    if (extra.length) throw new CliError(`unexpected argument ${extra[0]}`, EXIT.USAGE);
    if (!values.collection) throw new CliError('--collection is required', EXIT.USAGE);
    const api = apiClient(clientFrom(values));
    const collection_id = values.collection;
    if (action === 'add') {
      if (!arg) throw new CliError('give the folder: vidx folders add <path> --collection C', EXIT.USAGE);
      return addFolder(api, collection_id, arg, values);
    }
    if (action === 'list' || action === 'ls' || action === undefined) {
      const res = await api.GET('/collections/{collection_id}/folders', { params: { path: { collection_id } } });
      output(values.json, res, table(res.folders));
      return EXIT.OK;
    }
    if (!arg) throw new CliError(`give the folder id: vidx folders ${action} <folder_id> --collection C`, EXIT.USAGE);
    if (action === 'scan') {
      const { task_id } = await api.POST('/collections/{collection_id}/folders/{folder_id}/scan', { params: { path: { collection_id, folder_id: arg } } });
      return follow(api, task_id, values);
    }
    if (action === 'remove' || action === 'rm') {
      const f = await api.DELETE('/collections/{collection_id}/folders/{folder_id}', { params: { path: { collection_id, folder_id: arg }, query: { remove_items: !values['keep-items'] } } });
      output(values.json, f, `removed folder ${f.folder_id} (${f.path})${values['keep-items'] ? '; its items stay' : ' and its items'}`);
      return EXIT.OK;
    }
    throw new CliError(`unknown action "${action}" (add, list, scan or remove)`, EXIT.USAGE);
  });
}
