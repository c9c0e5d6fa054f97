import { CliError, EXIT } from './client.js';
import { CLIENT_HELP, CLIENT_OPTIONS, clientFrom, output, parseFlags, runCommand } from './common.js';
import { describeAnalyzeResult } from './present.js';
import { metadataFlag, submitVideo } from './submit.js';

const HELP = `Usage: vidx analyze <file|url> [options]

Analyzes a video without indexing it (transcript, on-screen text, episodes, summaries) and waits for the
task with a progress bar. A local file is uploaded with the request; a URL is fetched by the server.
With --json the whole task (result included, as GET /tasks/{id} returns it) goes to stdout.

Options:
  --media-id ID     media id to report (default: generated)
  --title T         title
  --metadata JSON   additional_metadata, a JSON object
  --path            send the file's absolute path instead of uploading it (it must lie in the server's VIDX_MEDIA_ROOTS)
  --no-wait         print the task id and return at once (follow it with \`vidx tasks show <id> --wait\`)
  -q, --quiet       no progress on stderr

${CLIENT_HELP}`;

/**
 * \`vidx analyze <file|url>\`: POST /analyze, then wait and print the analysis.
 * @example
 * process.exitCode = await analyzeCommand(['talk.mp4', '--json']);
 */
export async function analyzeCommand(argv: string[]): Promise<number> {
  return runCommand('analyze', HELP, argv, async () => {
    const { values, positionals } = parseFlags(argv, {
      ...CLIENT_OPTIONS,
      'media-id': { type: 'string' },
      title: { type: 'string' },
      metadata: { type: 'string' },
      path: { type: 'boolean', default: false },
      'no-wait': { type: 'boolean', default: false },
      quiet: { type: 'boolean', short: 'q', default: false },
    });
    if (positionals.length !== 1) throw new CliError('give exactly one file or URL', EXIT.USAGE);
    const client = clientFrom(values);
    const fields = { media_id: values['media-id'], title: values.title, additional_metadata: metadataFlag(values.metadata) };
    const { taskId, task } = await submitVideo(client, '/analyze', positionals[0], {}, fields, {
      byPath: values.path, wait: !values['no-wait'], quiet: values.quiet,
    });
    if (!task) {
      output(values.json, { task_id: taskId }, taskId);
      return EXIT.OK;
    }
    if (task.status === 'failed') {
      output(values.json, task, '');
      process.stderr.write(`vidx analyze: task ${task.id} failed: ${task.error}\n`);
      return EXIT.FAILED;
    }
    output(values.json, task, describeAnalyzeResult(task.result));
    return EXIT.OK;
  });
}
