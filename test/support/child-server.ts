// A vidx in its own process, so a test can kill -9 it: prints {"url": ...} on stdout once listening.
import { loadConfig } from '../../src/config.js';
import { startVidx } from '../../src/server.js';
import { fakeAnalyze } from './fake-tasks.js';

const vidx = await startVidx(loadConfig(process.env), { registerTasks: fakeAnalyze().register });
process.stdout.write(`${JSON.stringify({ url: vidx.url })}\n`);
