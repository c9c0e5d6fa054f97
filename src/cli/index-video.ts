import { statSync } from 'node:fs';
import { apiClient, CliError, EXIT } from './client.js';
import { addFolder, FOLDER_HELP, FOLDER_OPTIONS } from './folders.js';
import { CLIENT_HELP, CLIENT_OPTIONS, clientFrom, parseFlags, runCommand } from './common.js';
import { describeIndexResult } from './present.js';
import { metadataFlag, reportTask, submitVideo, VIDEO_HELP, VIDEO_OPTIONS } from './submit.js';
import { LANGS, type Lang } from '../messages/index.js';

const HELP = `Usage: vidx index <file|url|folder> --collection C [options]

Indexes a video into a collection so \`vidx search\` finds it, and waits for the task with a progress bar.
A local file is uploaded with the request; a URL (a video file, or a page yt-dlp knows) is fetched by the server.
A folder (inside the server's VIDX_MEDIA_ROOTS) is bound to the collection and scanned: every video, audio file
and picture in it becomes an item (see \`vidx folders --help\`); one progress bar shows files done / total.

Options:
  --collection C    collection to index into (required; create it with \`vidx collections create\`)
  --media-id ID     id inside the collection (default: generated); an existing id is skipped unless --reindex
  --language en|de  index language (default en)
  --reindex         replace the item when the media id exists
${VIDEO_HELP}

Folders:
${FOLDER_HELP}

${CLIENT_HELP}`;

const isDirectory = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/**
 * \`vidx index <file|url> --collection C\`: POST /index, then wait and print what was stored.
 * @example
 * process.exitCode = await indexCommand(['talk.mp4', '--collection', 'trips']);
 */
export async function indexCommand(argv: string[]): Promise<number> {
  return runCommand('index', HELP, argv, async () => {
    const { values, positionals } = parseFlags(argv, {
      ...CLIENT_OPTIONS,
      collection: { type: 'string', short: 'c' },
      language: { type: 'string' },
      reindex: { type: 'boolean', default: false },
      ...VIDEO_OPTIONS,
      ...FOLDER_OPTIONS,
    });
    if (positionals.length !== 1) throw new CliError('give exactly one file or URL', EXIT.USAGE);
    if (!values.collection) throw new CliError('--collection is required', EXIT.USAGE);
    if (values.language && !LANGS.includes(values.language as Lang)) throw new CliError('--language must be en or de', EXIT.USAGE);
    const api = apiClient(clientFrom(values));
    if (isDirectory(positionals[0])) return addFolder(api, values.collection, positionals[0], values);
    // --language was checked above.
    const language = values.language as Lang | undefined;
    const body = { collection: values.collection, ...(language ? { index_language: language } : {}), ...(values.reindex ? { reindex_if_exists: true } : {}) };
    const fields = { media_id: values['media-id'], title: values.title, additional_metadata: metadataFlag(values.metadata) };
    const submitted = await submitVideo(api, '/index', positionals[0], body, fields, {
      byPath: values.path, wait: !values['no-wait'], quiet: values.quiet,
    });
    return reportTask('index', values.json, submitted, describeIndexResult);
  });
}
