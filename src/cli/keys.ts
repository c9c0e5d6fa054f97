import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { readConfig } from '../config.js';
import { openStore } from '../store/index.js';
import { KeyService } from '../services/keys.js';
import { Problem } from '../services/errors.js';

const HELP = `Usage:
  vidx keys create --name NAME [--admin] [--json]   print a new key once (role user, or admin with --admin)
  vidx keys create --worker [--name NAME] [--worker-id ID] [--max-concurrency N] [--json]
                                                    a key for \`vidx worker\` (role worker: only the job endpoints);
                                                    one key is one worker: its id is ID, else the one its first
                                                    heartbeat names; it may announce at most N jobs at once (default 8)
  vidx keys list [--json]                           id, role, name, created, last used (never the keys)
  vidx keys revoke <id> [--json]                    the last admin key cannot be revoked

Options: --data-dir D (default VIDX_DATA_DIR, else ~/.local/share/vidx), -h, --help
Works on the data dir directly, also while the server runs. Exit codes: 0 ok, 1 refused, 2 usage error.`;

/**
 * `vidx keys …`: API key management on the local database.
 * @example
 * await keysCommand(['create', '--name', 'laptop']);
 */
export async function keysCommand(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv,
      allowPositionals: true,
      options: {
        name: { type: 'string' },
        admin: { type: 'boolean', default: false },
        worker: { type: 'boolean', default: false },
        'worker-id': { type: 'string' },
        'max-concurrency': { type: 'string' },
        json: { type: 'boolean', default: false },
        'data-dir': { type: 'string' },
        help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    process.stderr.write(`vidx keys: ${(err as Error).message}\n${HELP}\n`);
    return 2;
  }
  const { values, positionals } = parsed;
  const [action, id] = positionals;
  if (values.help || !action) {
    process.stdout.write(`${HELP}\n`);
    return values.help ? 0 : 2;
  }
  const config = readConfig(values['data-dir'] ? ['--data-dir', values['data-dir']] : []);
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const store = openStore(join(config.dataDir, 'vidx.db'));
  const keys = new KeyService(store.keys, store.storage);
  const out = (v: unknown, text: string) => process.stdout.write(values.json ? `${JSON.stringify(v)}\n` : `${text}\n`);
  try {
    if (action === 'create') {
      const name = values.name ?? (values.worker ? 'worker' : undefined);
      if (!name || (values.admin && values.worker)) {
        process.stderr.write(`vidx keys create: ${name ? '--admin and --worker exclude each other' : '--name is required'}\n`);
        return 2;
      }
      const cap = values['max-concurrency'];
      const worker = { workerId: values['worker-id'], maxConcurrency: cap === undefined ? undefined : Number(cap) };
      const k = keys.create(name, values.admin ? 'admin' : values.worker ? 'worker' : 'user', worker);
      out(k, `${k.key}\n(id ${k.id}, role ${k.role}; the key is shown only now)`);
    } else if (action === 'list') {
      const list = keys.list();
      const worker = (k: (typeof list)[number]) => (k.role === 'worker' ? `\tworker ${k.worker_id ?? '(first heartbeat)'}, at most ${k.max_concurrency} jobs` : '');
      out(list, list.map((k) => `${k.id}\t${k.role}\t${k.name}\tcreated ${k.created_at}\tlast used ${k.last_used_at ?? 'never'}${worker(k)}`).join('\n'));
    } else if (action === 'revoke' && id) {
      const k = keys.revoke(id);
      out(k, `revoked ${k.id} (${k.name})`);
    } else {
      process.stderr.write(`${HELP}\n`);
      return 2;
    }
    return 0;
  } catch (err) {
    if (err instanceof Problem) {
      // On the data dir directly, so no HTTP status: the problem's code (not_found, conflict…) and null.
      if (values.json) process.stdout.write(`${JSON.stringify({ error: { code: err.code ?? err.kind, message: err.message, status: null } })}\n`);
      process.stderr.write(`vidx keys: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    store.close();
  }
}
