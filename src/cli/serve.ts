import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ConfigError, readConfig } from '../config.js';
import { startVidx } from '../server.js';
import { runModels } from './models.js';

const HELP = `Usage: vidx serve [options]

Options (each also an environment variable):
  --host H            VIDX_HOST             address to bind (default 127.0.0.1)
  --port P            VIDX_PORT             port (default 8484; 0 picks a free one)
  --data-dir D        VIDX_DATA_DIR         SQLite file, uploads, thumbnails (default ~/.local/share/vidx)
  --media-roots A:B   VIDX_MEDIA_ROOTS      folders video.path may read from (default: your home folder)
  --models-dir D      VIDX_MODELS_DIR       downloaded models (default <data dir>/models)
  --hub-url U         VIDX_HUB_URL          model hub for pulls (default https://huggingface.co)
  --max-upload-mb N   VIDX_MAX_UPLOAD_MB    largest multipart upload (default 4096)
  --concurrency N     VIDX_TASK_CONCURRENCY heavy tasks at once (default 1)
  --public-url U      VIDX_PUBLIC_URL       base of signed links when behind a proxy
  --allowed-hosts H   VIDX_ALLOWED_HOSTS    other Host names and CIDRs the server answers to (DNS-rebinding guard)
  --log info|silent   VIDX_LOG              request and task log on stdout (default info)
  --queue URL         VIDX_QUEUE_URL        Redis of the analysis job queue: analyses go to vidx worker processes
  --local-workers N   VIDX_LOCAL_WORKERS    jobs of the queue the server analyses itself (default 1; 0: none)
  --pull-models                             download missing default models at start
VIDX_ADMIN_KEY, when set, is accepted as an admin key. VIDX_FOLDER_RESCAN_MINUTES (default 60, 0 = off): how often
watched folders are rescanned in full.`;

/**
 * `vidx serve`: starts the server and stops it cleanly on SIGINT/SIGTERM (running tasks go back to the queue).
 * @example
 * await serveCommand(['--port', '9000']);
 */
export async function serveCommand(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    process.stdout.write(`${HELP}\n`);
    return 0;
  }
  let config;
  try {
    config = readConfig(argv);
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`vidx: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  if (config.pullModels) {
    // Asked for explicitly: fetch the missing default models before serving; a failure only warns.
    const code = await runModels(['pull', 'default', '--yes'], {
      modelsDir: config.modelsDir, hubUrl: config.hubUrl, manifestPath: config.modelsManifest,
      stdin: process.stdin, stdout: process.stderr, stderr: process.stderr,
    });
    if (code !== 0) process.stderr.write(`vidx: model pull ended with code ${code}; serving with the models that are installed\n`);
  }
  const vidx = await startVidx(config);
  const key =
    vidx.adminKey.kind === 'env'
      ? 'admin key: from VIDX_ADMIN_KEY'
      : vidx.adminKey.kind === 'file'
        ? `admin key: ${vidx.adminKey.path}${vidx.adminKey.created ? ' (created now)' : ''}`
        : 'admin key: created earlier (use `vidx keys create --admin` for a new one)';
  // Handlers first, banner second: whoever reads the banner may send SIGTERM at once.
  const stopped = new Promise<void>((resolve) => {
    const stop = () => {
      process.stderr.write('vidx: stopping…\n');
      void vidx.close().then(resolve);
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
  const page = existsSync(join(config.webDir, 'index.html')) ? `${vidx.url}/` : 'not built (npm run build:web)';
  process.stderr.write(`vidx listening on ${vidx.url}\ndata dir: ${config.dataDir}\n${key}\nweb page: ${page}\n`);
  await stopped;
  return 0;
}
