import { apiClient, CliError, EXIT } from './client.js';
import { CLIENT_HELP, CLIENT_OPTIONS, clientFrom, parseFlags, runCommand } from './common.js';
import { describeAnalyzeResult } from './present.js';
import { metadataFlag, reportTask, submitVideo, VIDEO_HELP, VIDEO_OPTIONS } from './submit.js';

const HELP = `Usage: vidx analyze <file|url> [options]

Analyzes a video without indexing it (transcript, on-screen text, episodes, summaries) and waits for the
task with a progress bar. A local file is uploaded with the request; a URL is fetched by the server.
With --json the whole task (result included, as GET /tasks/{id} returns it) goes to stdout.

Options:
  --media-id ID     media id to report (default: generated)
${VIDEO_HELP}

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
      ...VIDEO_OPTIONS,
    });
    if (positionals.length !== 1) throw new CliError('give exactly one file or URL', EXIT.USAGE);
    const api = apiClient(clientFrom(values));
    const fields = { media_id: values['media-id'], title: values.title, additional_metadata: metadataFlag(values.metadata) };
    const submitted = await submitVideo(api, '/analyze', positionals[0], {}, fields, {
      byPath: values.path, wait: !values['no-wait'], quiet: values.quiet,
    });
    return reportTask('analyze', values.json, submitted, describeAnalyzeResult);
  });
}
