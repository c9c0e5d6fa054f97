import { fileURLToPath } from 'node:url';
import { build, type Metafile } from 'esbuild';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The packages a module loads when it is imported: its static imports followed through the sources (an
 * `import()` inside a function loads only when that function runs). esbuild reads the graph, as the binary's
 * build does.
 */
async function packagesAtImport(entry: string): Promise<Set<string>> {
  const { metafile } = await build({ entryPoints: [`${ROOT}/${entry}`], bundle: true, write: false, metafile: true, platform: 'node', format: 'esm', packages: 'external', logLevel: 'silent' });
  return staticPackages(metafile, Object.keys(metafile.inputs).find((f) => f.endsWith(entry.replace(/^\.\//, '')))!);
}

function staticPackages(metafile: Metafile, start: string): Set<string> {
  const seen = new Set([start]);
  const packages = new Set<string>();
  const queue = [start];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    for (const imp of metafile.inputs[file]?.imports ?? []) {
      if (imp.kind !== 'import-statement') continue;
      if (imp.external) packages.add(imp.path.startsWith('@') ? imp.path.split('/').slice(0, 2).join('/') : imp.path.split('/')[0]!);
      else if (!seen.has(imp.path)) {
        seen.add(imp.path);
        queue.push(imp.path);
      }
    }
  }
  return packages;
}

// Every thread is a V8 heap of its own that loads its modules again: a package a thread never uses costs
// memory in each one (wink's English model ~18 MB, sharp and ONNX Runtime's JavaScript, zod).
describe('what a thread loads at its start', () => {
  it('a search thread loads neither the picture decoder, the ONNX runtime nor the English tagger', async () => {
    const loaded = await packagesAtImport('src/startup/search-thread.ts');
    expect(loaded).toContain('better-sqlite3');
    expect(loaded).toContain('chrono-node');
    for (const heavy of ['sharp', 'onnxruntime-node', 'wink-nlp']) expect(loaded, heavy).not.toContain(heavy);
  });

  it('an analysis thread loads the topic tagger only when it is asked for topics', async () => {
    const loaded = await packagesAtImport('src/services/threads/thread.ts');
    expect(loaded).toContain('onnxruntime-node');
    for (const heavy of ['wink-nlp', 'wink-eng-lite-web-model']) expect(loaded, heavy).not.toContain(heavy);
  });
});
