import { realpath } from 'node:fs/promises';
import { resolve } from 'node:path';
import { ApiError, CliError, EXIT, request, type Client } from './client.js';
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

interface Folder {
  folder_id: string;
  path: string;
  watch: boolean;
  recursive: boolean;
  exclude: string[];
  last_scan: string | null;
  scan_task_id: string | null;
}

/** Follows a scan task with one progress bar (files done / total, current file) and prints its result. */
async function follow(client: Client, taskId: string, values: { json?: boolean; quiet?: boolean; 'no-wait'?: boolean }): Promise<number> {
  if (values['no-wait']) return reportTask('folders', values.json, { taskId }, describeScanResult);
  if (!values.quiet) process.stderr.write(`scan task ${taskId}\n`);
  const task = await waitForTask(client, taskId, { stderr: process.stderr, quiet: values.quiet });
  return reportTask('folders', values.json, { taskId, task }, describeScanResult);
}

/**
 * Binds a local folder to a collection (POST /collections/{c}/folders) and follows its first scan;
 * `vidx index <folder>` and `vidx folders add` both come here.
 * @example
 * return addFolder(client, 'trips', './phone', { watch: false, exclude: [], 'no-recursive': false });
 */
export async function addFolder(
  client: Client,
  collection: string,
  path: string,
  values: { watch?: boolean; exclude?: string[]; 'no-recursive'?: boolean; json?: boolean; quiet?: boolean; 'no-wait'?: boolean },
): Promise<number> {
  const base = `/collections/${encodeURIComponent(collection)}/folders`;
  const body = { path: resolve(path), watch: Boolean(values.watch), recursive: !values['no-recursive'], exclude: values.exclude ?? [] };
  let folder: Folder;
  try {
    folder = (await request(client, 'POST', base, { json: body })) as Folder;
  } catch (err) {
    // The folder is already bound: running the same command again scans it (its settings stay as they are).
    const real = await realpath(body.path).catch(() => body.path);
    const known = err instanceof ApiError && err.status === 409 ? ((await request(client, 'GET', base)) as { folders: Folder[] }).folders.find((f) => f.path === real) : undefined;
    if (!known) throw err;
    if (!values.quiet) process.stderr.write(`folder ${known.folder_id} is already bound (${known.path}); scanning it\n`);
    const { task_id } = (await request(client, 'POST', `${base}/${encodeURIComponent(known.folder_id)}/scan`)) as { task_id: string };
    return follow(client, task_id, values);
  }
  if (!values.quiet) process.stderr.write(`folder ${folder.folder_id}: ${folder.path}${folder.watch ? ' (watched)' : ''}\n`);
  return follow(client, folder.scan_task_id!, values);
}

function table(rows: Folder[]): string {
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
    const client = clientFrom(values);
    const base = `/collections/${encodeURIComponent(values.collection)}/folders`;
    if (action === 'add') {
      if (!arg) throw new CliError('give the folder: vidx folders add <path> --collection C', EXIT.USAGE);
      return addFolder(client, values.collection, arg, values);
    }
    if (action === 'list' || action === 'ls' || action === undefined) {
      const res = (await request(client, 'GET', base)) as { folders: Folder[] };
      output(values.json, res, table(res.folders));
      return EXIT.OK;
    }
    if (!arg) throw new CliError(`give the folder id: vidx folders ${action} <folder_id> --collection C`, EXIT.USAGE);
    if (action === 'scan') {
      const { task_id } = (await request(client, 'POST', `${base}/${encodeURIComponent(arg)}/scan`)) as { task_id: string };
      return follow(client, task_id, values);
    }
    if (action === 'remove' || action === 'rm') {
      const f = (await request(client, 'DELETE', `${base}/${encodeURIComponent(arg)}`, { query: { remove_items: !values['keep-items'] } })) as Folder;
      output(values.json, f, `removed folder ${f.folder_id} (${f.path})${values['keep-items'] ? '; its items stay' : ' and its items'}`);
      return EXIT.OK;
    }
    throw new CliError(`unknown action "${action}" (add, list, scan or remove)`, EXIT.USAGE);
  });
}
