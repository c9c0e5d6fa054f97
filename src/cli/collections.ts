import type { Schemas } from '../client/index.js';
import { apiClient, CliError, EXIT } from './client.js';
import { CLIENT_HELP, CLIENT_OPTIONS, clientFrom, output, parseFlags, runCommand } from './common.js';

const HELP = `Usage:
  vidx collections list [--public]
  vidx collections create <id> [--name NAME] [--description TEXT] [--public]

list     your collections (with --public: every public collection)
create   a new collection; the id is 1..64 letters, digits, _ or - and unique on the server; the name
         defaults to the id; --public needs an admin key

${CLIENT_HELP}`;

function table(rows: Schemas['Collection'][]): string {
  if (rows.length === 0) return 'no collections';
  const w = Math.max(2, ...rows.map((c) => c.collection_id.length));
  const n = Math.max(4, ...rows.map((c) => c.name.length));
  const head = `${'ID'.padEnd(w)}  ${'NAME'.padEnd(n)}  PUBLIC  DESCRIPTION`;
  return [head, ...rows.map((c) => `${c.collection_id.padEnd(w)}  ${c.name.padEnd(n)}  ${(c.is_public ? 'yes' : 'no').padEnd(6)}  ${c.description ?? ''}`.trimEnd())].join('\n');
}

/**
 * \`vidx collections list|create\` over GET/POST /collections.
 * @example
 * process.exitCode = await collectionsCommand(['create', 'trips', '--name', 'Trips']);
 */
export async function collectionsCommand(argv: string[]): Promise<number> {
  return runCommand('collections', HELP, argv, async () => {
    const { values, positionals } = parseFlags(argv, {
      ...CLIENT_OPTIONS,
      name: { type: 'string' },
      description: { type: 'string' },
      public: { type: 'boolean', default: false },
    });
    const [action, id, ...extra] = positionals;
    const api = apiClient(clientFrom(values));
    if (action === 'list' || action === 'ls' || action === undefined) {
      if (id !== undefined) throw new CliError(`unexpected argument ${id}`, EXIT.USAGE);
      const res = await api.GET('/collections', { params: { query: { public: values.public } } });
      output(values.json, res, table(res.collections));
      return EXIT.OK;
    }
    if (action === 'create') {
      if (!id || extra.length > 0) throw new CliError('give one collection id: vidx collections create <id> [--name NAME]', EXIT.USAGE);
      const body = { collection_id: id, name: values.name ?? id, ...(values.description !== undefined ? { description: values.description } : {}), is_public: values.public };
      const c = await api.POST('/collections', { body });
      output(values.json, c, `created collection ${c.collection_id} (${c.is_public ? 'public' : 'private'})`);
      return EXIT.OK;
    }
    throw new CliError(`unknown action "${action}" (list or create)`, EXIT.USAGE);
  });
}
