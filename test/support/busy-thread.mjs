// A thread entry for ThreadPool tests that speaks the pool's protocol (services/threads/protocol.ts) but does
// its call in one synchronous stretch, as a long ONNX run or a loop over a huge input does: it starts a tool
// process (`sleep`), reports it as the analysis thread reports ffmpeg, then spins for `input.ms` without
// looking at its messages. The call `busy` answers { spun: ms } when it gets there.
import { spawn } from 'node:child_process';
import { parentPort } from 'node:worker_threads';

parentPort.on('message', (m) => {
  if ('cancel' in m) return;
  if (m.call !== 'busy') return parentPort.postMessage({ id: m.id, error: { name: 'Error', message: `unknown thread call "${m.call}"` } });
  const tool = spawn('sleep', ['60'], { stdio: 'ignore' });
  parentPort.postMessage({ child: [tool.pid, true] });
  tool.on('exit', () => parentPort.postMessage({ child: [tool.pid, false] }));
  const end = Date.now() + m.input.ms;
  while (Date.now() < end) {
    // Busy on purpose: the cancel message waits in the queue.
  }
  tool.kill();
  parentPort.postMessage({ id: m.id, output: { spun: m.input.ms } });
});
