/**
 * The first step of a start: the data dir made private, the server's file-access rule made (which files
 * media may be read from), and the link secret read or made.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Config } from '../config.js';
import { FileAccess } from '../media/file-access.js';
import { exposedFiles } from '../store/privacy.js';

/**
 * Creates the data dir (0700), warns about files others can read, and makes the server's file-access rule
 * (which files media may be read from), which the start passes down to whatever opens a file.
 * @example
 * const files = prepareDataDir(config);
 */
export function prepareDataDir(config: Config): FileAccess {
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  const files = new FileAccess({ mediaRoots: config.mediaRoots, dataDir: config.dataDir, ownDirs: config.ownDirs });
  for (const f of exposedFiles(config.dataDir)) {
    process.stderr.write(`vidx: warning: ${f.path} can be read by other users (mode ${f.mode.toString(8)}); it holds keys and secrets. Fix: ${f.fix}\n`);
  }
  return files;
}

/**
 * The secret signed file links are made with: `<data dir>/link.secret` (0600), made on first start.
 * @example
 * const links = new SignedFileLinks('', linkSecret(dataDir), dataDir);
 */
export function linkSecret(dataDir: string): Buffer {
  const file = join(dataDir, 'link.secret');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'base64url');
  const secret = randomBytes(32);
  writeFileSync(file, secret.toString('base64url'), { mode: 0o600 });
  return secret;
}

/**
 * Task errors name files as the caller knows them: the server's own folder never appears in full.
 * @example
 * dataDirRedactor('/data')('cannot read /data/uploads/x'); // 'cannot read uploads/x'
 */
export function dataDirRedactor(dataDir: string): (message: string) => string {
  const forms = [...new Set([dataDir, realpathSync(dataDir)])].sort((a, b) => b.length - a.length);
  return (message) => forms.reduce((m, d) => m.split(`${d}/`).join('').split(d).join('<data dir>'), message);
}
