import { apiClient, CliError, EXIT } from './client.js';
import { CLIENT_HELP, CLIENT_OPTIONS, clientFrom, intFlag, output, parseFlags, runCommand } from './common.js';
import { clock } from '../tools/clock.js';

const HELP = `Usage: vidx ask "<question>" [--collection C] [options]

Asks a question (POST /ask) in English or German and prints the answer, built around the line that says
it, then the moments it cites (the first is the one quoted), each with its time.
When nothing in the archive says so, it says that and exits 0.

Options:
  --collection C    ask one collection (default: every collection of the key)
  --limit N         moments to cite, 1..20 (default 5)

${CLIENT_HELP}`;

/**
 * \`vidx ask "<question>"\`: POST /ask and print the answer and its citations.
 * @example
 * process.exitCode = await askCommand(['When do we leave the harbour?', '--collection', 'home']);
 */
export async function askCommand(argv: string[]): Promise<number> {
  return runCommand('ask', HELP, argv, async () => {
    const { values, positionals } = parseFlags(argv, { ...CLIENT_OPTIONS, collection: { type: 'string', short: 'c' }, limit: { type: 'string' } });
    const question = positionals.join(' ').trim();
    if (!question) throw new CliError('give a question, e.g. vidx ask "When do we leave the harbour?"', EXIT.USAGE);
    const body = { question, ...(values.collection ? { collection: values.collection } : {}), limit: intFlag('--limit', values.limit, 5, 1, 20) };
    const res = await apiClient(clientFrom(values)).POST('/ask', { params: { query: { stream: 'false' } }, body });
    const cited = res.citations.map((c, i) => `  [${i + 1}] ${c.collection}/${c.title || c.media_id}  ${clock(c.start_time)}  “${c.quote}”`);
    const text = res.answer.text ?? res.answer.note ?? '';
    const how = res.model ? [`(written by ${res.model} from the moments below)`] : res.notice ? [`(${res.notice})`] : [];
    output(values.json, res, [text, ...how, ...(cited.length ? ['', ...cited] : [])].join('\n'));
    return EXIT.OK;
  });
}
