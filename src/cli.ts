import { runCli } from './cli/run.js';

export { runCli };

// Run when executed directly (tsx src/cli.ts, bin/vidx.js), not when imported by main.ts or tests.
const invoked = process.argv[1] ?? '';
if (/[\\/]cli\.(ts|js)$/.test(invoked)) {
  process.exitCode = await runCli(process.argv.slice(2));
}
