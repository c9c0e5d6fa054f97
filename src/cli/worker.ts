import { ConfigError, readWorkerConfig } from '../config.js';
import { VidxError } from '../client/index.js';
import { createLogger, redacting } from '../logger.js';
import { EXIT } from './client.js';

const HELP = `Usage: vidx worker --server URL --queue redis://host:port [options]

Runs a vidx server's analysis jobs on this machine: takes them from the server's Redis queue (BullMQ),
reads each job's media through signed links (no access to the server's folders needed), analyses it with
this machine's models and delivers the result. See docs/workers.md.

Options (each also an environment variable):
  --server URL        VIDX_URL                  the server it works for
  --queue URL         VIDX_QUEUE_URL            the server's Redis: redis://[:password@]host:port[/db], rediss:// for TLS
  --key K             VIDX_API_KEY              a worker key (vidx keys create --worker on the server)
  --data-dir D        VIDX_DATA_DIR             its own models and temporary files (default ~/.local/share/vidx-worker)
  --models-dir D      VIDX_MODELS_DIR           its models (default <data dir>/models)
  --concurrency N     VIDX_WORKER_CONCURRENCY   jobs at once (default 1)
  --id NAME           VIDX_WORKER_ID            its name (default <host>-<4 hex>, kept in <data dir>/worker.id)
  --log info|silent   VIDX_LOG                  log lines on stdout (default info)
  --pull-models                                 pull the models the server analyses with from the server first
VIDX_WORKER_LOCK_SECONDS (default 30): how long a job stays with a worker that stopped answering before
another takes it. A worker takes only jobs of servers whose models are the same as its own.

Exit codes: 0 stopped (SIGINT/SIGTERM), 1 refused (a server without a job queue), 2 usage error, 3 server unreachable, 4 key
missing or refused.`;

/**
 * \`vidx worker\`: runs a server's analysis jobs until SIGINT/SIGTERM (its running jobs go back to the queue).
 * @example
 * await workerCommand(['--server', 'http://nas:8484', '--queue', 'redis://nas:6379']);
 */
export async function workerCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${HELP}\n`);
    return EXIT.OK;
  }
  let config;
  try {
    config = readWorkerConfig(argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`vidx worker: ${err.message}\n`);
      return EXIT.USAGE;
    }
    throw err;
  }
  const { startWorker } = await import('../worker/index.js');
  let worker;
  try {
    worker = await startWorker(config, redacting(createLogger(config.logLevel)));
  } catch (err) {
    process.stderr.write(`vidx worker: ${(err as Error).message}\n`);
    if (!(err instanceof VidxError)) return EXIT.UNREACHABLE;
    return err.status === 401 || err.status === 403 ? EXIT.AUTH : EXIT.FAILED;
  }
  process.stderr.write(`vidx worker ${worker.id} taking jobs of ${config.serverUrl} from ${worker.queue}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.stderr.write('vidx worker: stopping; running jobs go back to the queue…\n');
      void worker.close().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  return EXIT.OK;
}
