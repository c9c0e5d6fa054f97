/**
 * Entry of a job worker thread: answers each JobMessage with the job's output or its error message.
 * Started by JobRunner; never imported by the main thread.
 */
import { parentPort } from 'node:worker_threads';
import { jobs, type JobMessage, type JobReply } from './jobs.js';

const port = parentPort;
if (!port) throw new Error('services/workers/thread.ts runs as a worker thread only');
port.on('message', (m: JobMessage) => {
  let reply: JobReply;
  try {
    // The cast: the name picks the job, the input was typed by JobRunner.run for that name.
    reply = { id: m.id, output: (jobs[m.name] as (input: unknown) => unknown)(m.input) };
  } catch (err) {
    reply = { id: m.id, error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(reply);
});
