import { ConfigError, readConfig } from '../config.js';
import { runModelsCommand } from '../ml/registry/index.js';

/**
 * `vidx models list|pull|import|export`: model install state, downloads from VIDX_HUB_URL and models brought
 * from elsewhere, in VIDX_MODELS_DIR.
 * @example
 * await modelsCommand(['pull', 'default', '--yes']);
 */
export async function modelsCommand(argv: string[]): Promise<number> {
  let config;
  try {
    config = readConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`vidx: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  const controller = new AbortController();
  process.once('SIGINT', () => controller.abort());
  return runModelsCommand(argv, {
    modelsDir: config.modelsDir,
    hubUrl: config.hubUrl,
    manifestPath: config.modelsManifest,
    stdin: process.stdin,
    stdout: process.stdout,
    stderr: process.stderr,
    signal: controller.signal,
  });
}
