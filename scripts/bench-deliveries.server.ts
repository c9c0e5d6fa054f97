// The vidx of scripts/bench-deliveries.ts, in a process of its own (its event loop is what the benchmark
// watches): prints {"url": …, "pid": …} on stdout once listening, and on SIGUSR2 one line with the longest
// event-loop delay since the last one (monitorEventLoopDelay, 10 ms resolution).
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../src/config.js';
import { startVidx } from '../src/server.js';

const delay = monitorEventLoopDelay({ resolution: 10 });
delay.enable();
const vidx = await startVidx(loadConfig(process.env));
process.on('SIGUSR2', () => {
  process.stdout.write(`bench ${JSON.stringify({ loop_max_ms: delay.max / 1e6, loop_p99_ms: delay.percentile(99) / 1e6 })}\n`);
  delay.reset();
});
process.stdout.write(`bench ${JSON.stringify({ url: vidx.url, pid: process.pid })}\n`);
