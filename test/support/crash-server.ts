// A vidx in its own process that kills itself with SIGKILL when indexing reaches the step named by
// VIDX_TEST_CRASH_AT ('staged', 'committed' or 'cleaned'): a real kill -9 at an exact point of re-indexing.
// Prints {"url": ...} on stdout once listening.
import { loadConfig } from '../../src/config.js';
import { startVidx } from '../../src/server.js';

const crashAt = process.env.VIDX_TEST_CRASH_AT;
const vidx = await startVidx(loadConfig(process.env), {
  indexSteps: (step) => {
    if (step === crashAt) process.kill(process.pid, 'SIGKILL');
  },
});
process.stdout.write(`${JSON.stringify({ url: vidx.url })}\n`);
