import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

/** A file or folder of the data dir that other users can read, with the command that fixes it. */
export interface ExposedFile {
  path: string;
  /** Permission bits, e.g. 0o644. */
  mode: number;
  fix: string;
}

/** The files that hold keys, webhook secrets and the index; each must be private to vidx's user. */
const SECRET_FILES = ['vidx.db', 'vidx.db-wal', 'vidx.db-shm', 'admin.key', 'link.secret'];

/**
 * The data dir and its secret-holding files (database with WAL and SHM, admin key, link secret) that
 * group or others may read or enter. Missing files are skipped.
 * @example
 * for (const f of exposedFiles('/home/me/.local/share/vidx')) console.error(`${f.path} is readable by others: ${f.fix}`);
 */
export function exposedFiles(dataDir: string): ExposedFile[] {
  const out: ExposedFile[] = [];
  if (!existsSync(dataDir)) return out;
  const dirMode = statSync(dataDir).mode & 0o777;
  if (dirMode & 0o077) out.push({ path: dataDir, mode: dirMode, fix: `chmod 700 '${dataDir}'` });
  for (const name of SECRET_FILES) {
    const file = join(dataDir, name);
    if (!existsSync(file)) continue;
    const mode = statSync(file).mode & 0o777;
    if (mode & 0o077) out.push({ path: file, mode, fix: `chmod 600 '${file}'` });
  }
  return out;
}
