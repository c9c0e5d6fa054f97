import type { Schemas } from '../client/index.js';
import { apiClient, CliError, EXIT } from './client.js';
import { CLIENT_HELP, CLIENT_OPTIONS, clientFrom, output, parseFlags, runCommand } from './common.js';
import { describeTask } from './present.js';
import { waitForTask, type TaskView } from './wait.js';

const HELP = `Usage:
  vidx reindex --collection C [<media_id> ...] [--no-wait]

Analyses items of a collection again from their sources (the file a path pointed at, the kept upload, the
URL), keeping their media_id, title, metadata and people's names: after turning faces on or pulling a
model. Without media ids, every item of the collection. Waits with a progress bar per item unless --no-wait;
an item whose source is gone fails alone, and is listed with its reason.

Exit code 1 when the task fails or any item could not be re-indexed.

${CLIENT_HELP}`;

function describe(r: Schemas['ReindexResult']): string {
  const lines = [`re-indexed ${r.reindexed} of ${r.total} item(s)`];
  for (const f of r.failed) lines.push(`  failed ${f.title ?? f.media_id} (${f.media_id}): ${f.reason}`);
  return lines.join('\n');
}

/**
 * \`vidx reindex\` over POST /collections/{collection_id}/reindex.
 * @example
 * process.exitCode = await reindexCommand(['--collection', 'trips']);
 */
export async function reindexCommand(argv: string[]): Promise<number> {
  return runCommand('reindex', HELP, argv, async () => {
    const { values, positionals } = parseFlags(argv, {
      ...CLIENT_OPTIONS,
      collection: { type: 'string' },
      'no-wait': { type: 'boolean', default: false },
      quiet: { type: 'boolean', default: false },
    });
    if (!values.collection) throw new CliError('give the collection: vidx reindex --collection C [media_id ...]', EXIT.USAGE);
    const api = apiClient(clientFrom(values));
    const body = positionals.length ? { media_ids: positionals } : {};
    const { task_id } = await api.POST('/collections/{collection_id}/reindex', { params: { path: { collection_id: values.collection } }, body });
    if (values['no-wait']) {
      output(values.json, { task_id }, task_id);
      return EXIT.OK;
    }
    const task: TaskView = await waitForTask(api, task_id, { stderr: process.stderr, quiet: values.quiet || values.json });
    if (task.status === 'failed' || task.kind !== 'reindex' || !task.result) {
      output(values.json, task, describeTask(task));
      return EXIT.FAILED;
    }
    const result = task.result;
    output(values.json, task, describe(result));
    return result.failed.length ? EXIT.FAILED : EXIT.OK;
  });
}
