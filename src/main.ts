import { runCli } from './cli/run.js';

// `npm start` is `vidx serve` with flags passed through.
process.exitCode = await runCli(['serve', ...process.argv.slice(2)]);
