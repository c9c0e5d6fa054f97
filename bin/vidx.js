#!/usr/bin/env node
// `npx vidx` from a repository checkout: the compiled CLI in lib/ when it is newer than every source file
// (`npm start` and `npm run build:server` build it), else the TypeScript sources through tsx (a dev
// dependency). The packaged binary bundles the CLI instead.
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

/** The newest modification time of the .ts files under `dir`: a stat per file, a few milliseconds. */
function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, entry.name);
    if (entry.isDirectory()) newest = Math.max(newest, newestSource(p));
    else if (entry.name.endsWith('.ts')) newest = Math.max(newest, statSync(p).mtimeMs);
  }
  return newest;
}

const built = join(root, 'lib', 'build.json');
const compiled = existsSync(built) && statSync(built).mtimeMs >= newestSource(join(root, 'src'));
let runCli;
if (compiled) ({ runCli } = await import('../lib/cli/run.js'));
else {
  const { register } = await import('tsx/esm/api');
  register();
  ({ runCli } = await import('../src/cli/run.ts'));
}
process.exitCode = await runCli(process.argv.slice(2));
