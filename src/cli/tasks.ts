import type { Schemas } from '../client/index.js';
import { apiClient, CliError, EXIT } from './client.js';
import { CLIENT_HELP, CLIENT_OPTIONS, clientFrom, intFlag, output, parseFlags, runCommand } from './common.js';
import { describeTask, statusText } from './present.js';
import { waitForTask, type TaskView } from './wait.js';

const HELP = `Usage:
  vidx tasks [list] [--status S] [--endpoint E] [--limit N] [--offset N]
  vidx tasks show <id> [--wait]
  vidx tasks retry <id> [--wait]
  vidx tasks delete <id>

list     tasks, newest first; --status queued|running|completed|failed, --endpoint /index|/analyze,
         --limit 1..100 (default 20), --offset N
show     one task with its result; --wait follows it with a progress bar until it ends
retry    queue a failed task again; --wait follows it
delete   delete a task (a running one is cancelled first)

With --wait, the exit code is 1 when the task ends failed.
  -q, --quiet   no progress on stderr

${CLIENT_HELP}`;

/** The states a task can be in. */
type TaskStatus = Schemas['Task']['status'];

function table(tasks: TaskView[], total: number): string {
  if (tasks.length === 0) return 'no tasks';
  const rows = tasks.map((t) => [t.id, statusText(t), t.endpoint, `${Math.round(t.progress * 100)}%`, t.stage ?? '', t.created_at]);
  const head = ['ID', 'STATUS', 'ENDPOINT', 'PROGRESS', 'STAGE', 'CREATED'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ').trimEnd();
  const more = total > tasks.length ? `\n(${tasks.length} of ${total}; use --offset and --limit for more)` : '';
  return [line(head), ...rows.map(line)].join('\n') + more;
}

/**
 * \`vidx tasks list|show|retry|delete\` over the task endpoints.
 * @example
 * process.exitCode = await tasksCommand(['show', id, '--wait']);
 */
export async function tasksCommand(argv: string[]): Promise<number> {
  return runCommand('tasks', HELP, argv, async () => {
    const { values, positionals } = parseFlags(argv, {
      ...CLIENT_OPTIONS,
      status: { type: 'string' },
      endpoint: { type: 'string' },
      limit: { type: 'string' },
      offset: { type: 'string' },
      wait: { type: 'boolean', default: false },
      quiet: { type: 'boolean', short: 'q', default: false },
    });
    const [action = 'list', id, ...extra] = positionals;
    const api = apiClient(clientFrom(values));
    if (action === 'list' || action === 'ls') {
      if (id !== undefined) throw new CliError(`unexpected argument ${id}`, EXIT.USAGE);
      // --status is passed on as given: the server refuses a status it does not know (422 names the field).
      const status = values.status as TaskStatus | undefined;
      const query = { status, endpoint: values.endpoint, limit: intFlag('--limit', values.limit, 20, 1, 100), offset: intFlag('--offset', values.offset, 0, 0, Number.MAX_SAFE_INTEGER) };
      const res = await api.GET('/tasks', { params: { query } });
      output(values.json, res, table(res.tasks, res.total));
      return EXIT.OK;
    }
    if (!['show', 'retry', 'delete'].includes(action)) throw new CliError(`unknown action "${action}" (list, show, retry or delete)`, EXIT.USAGE);
    if (!id || extra.length > 0) throw new CliError(`give one task id: vidx tasks ${action} <id>`, EXIT.USAGE);
    const task = { params: { path: { task_id: id } } };
    if (action === 'delete') {
      const t = await api.DELETE('/tasks/{task_id}', task);
      output(values.json, t, `deleted task ${t.id} (${t.status})`);
      return EXIT.OK;
    }
    let t: TaskView = action === 'retry' ? await api.POST('/tasks/{task_id}/retry', task) : await api.GET('/tasks/{task_id}', task);
    if (values.wait) t = await waitForTask(api, t.id, { stderr: process.stderr, quiet: values.quiet });
    output(values.json, t, describeTask(t));
    return values.wait && t.status === 'failed' ? EXIT.FAILED : EXIT.OK;
  });
}
