/**
 * The README is the front door and docs/ holds one page per subject: this keeps the README short, every
 * relative link and image resolving, every `#anchor` naming a heading of its target, and every page reachable.
 */
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const root = process.cwd();
const readme = join(root, 'README.md');
const docsDir = join(root, 'docs');
const docPages = readdirSync(docsDir)
  .filter((name) => name.endsWith('.md'))
  .map((name) => join(docsDir, name));
const markdownFiles = [readme, ...docPages];

/**
 * The lines of a markdown file outside fenced code blocks (``` or ~~~), so code never counts as a
 * heading or a link. Lines inside a fence come back empty to keep line numbers.
 *
 * @example proseLines('a\n```\n# not a heading\n```\nb') // ['a', '', '', '', 'b']
 */
function proseLines(text: string): string[] {
  let fence: string | null = null;
  return text.split('\n').map((line) => {
    const m = /^\s{0,3}(`{3,}|~{3,})/.exec(line);
    if (fence === null && m) {
      fence = m[1]!;
      return '';
    }
    if (fence !== null) {
      if (m && m[1]![0] === fence[0] && m[1]!.length >= fence.length && line.trim() === m[1]) fence = null;
      return '';
    }
    return line;
  });
}

/**
 * A heading's anchor as GitHub makes it: the rendered text lowercased, punctuation dropped (letters,
 * digits, `_`, `-` and spaces stay), each space a `-`. Inline code, emphasis and link targets are
 * rendered first. Duplicates are numbered by {@link anchorsOf}.
 *
 * @example githubSlug('MCP for AI agents') // 'mcp-for-ai-agents'
 * @example githubSlug('Performance: search (2026-11-24)') // 'performance-search-2026-11-24'
 */
function githubSlug(heading: string): string {
  const rendered = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1') // [text](url) → text
    .replace(/<[^>]+>/g, ''); // inline HTML tags
  return rendered
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-');
}

/**
 * Every anchor a file's headings give, duplicates numbered `-1`, `-2` as GitHub does.
 *
 * @example anchorsOf('# A\n## A\n') // Set {'a', 'a-1'}
 */
function anchorsOf(text: string): Set<string> {
  // github-slugger's rule: a repeated slug gets the next free "-n" of its base.
  const occurrences = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(text)) {
    const m = /^\s{0,3}#{1,6}\s+(.*?)(?:\s+#+)?\s*$/.exec(line);
    if (!m) continue;
    const base = githubSlug(m[1]!);
    let slug = base;
    while (occurrences.has(slug)) {
      const n = occurrences.get(base)! + 1;
      occurrences.set(base, n);
      slug = `${base}-${n}`;
    }
    occurrences.set(slug, 0);
    anchors.add(slug);
  }
  return anchors;
}

interface Link {
  line: number;
  target: string;
}

/**
 * The targets of inline links and images `[text](target "title")` outside code (fenced blocks and
 * inline code spans).
 *
 * @example linksOf('see [API](docs/api.md#errors) and `[x](y)`') // [{line: 1, target: 'docs/api.md#errors'}]
 */
function linksOf(text: string): Link[] {
  const links: Link[] = [];
  proseLines(text).forEach((raw, i) => {
    const line = raw.replace(/`[^`]*`/g, '');
    for (const m of line.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line: i + 1, target: m[1]! });
    }
  });
  return links;
}

const isExternal = (target: string): boolean => /^[a-z][a-z0-9+.-]*:/i.test(target);
const anchorCache = new Map<string, Set<string>>();
function anchorsOfFile(file: string): Set<string> {
  let anchors = anchorCache.get(file);
  if (!anchors) {
    anchors = anchorsOf(readFileSync(file, 'utf8'));
    anchorCache.set(file, anchors);
  }
  return anchors;
}

describe('docs', () => {
  it('the slug rules match GitHub on the cases the docs use', () => {
    expect(githubSlug('API decisions')).toBe('api-decisions');
    expect(githubSlug('Models: OCR and VAD')).toBe('models-ocr-and-vad');
    expect(githubSlug('Between (2026-11-23)')).toBe('between-2026-11-23');
    expect(githubSlug('`vidx mcp` and `POST /mcp`')).toBe('vidx-mcp-and-post-mcp');
    expect(githubSlug('Größe & Übersicht')).toBe('größe--übersicht');
    expect([...anchorsOf('# A\n## A\n### A\n```\n# A\n```\n')]).toEqual(['a', 'a-1', 'a-2']);
  });

  it('README.md has at most 250 lines', () => {
    const lines = readFileSync(readme, 'utf8').replace(/\n$/, '').split('\n').length;
    expect(lines).toBeLessThanOrEqual(250);
  });

  it('every relative link and image resolves, and every #anchor is a heading of its target', () => {
    const broken: string[] = [];
    for (const file of markdownFiles) {
      const where = relative(root, file);
      for (const { line, target } of linksOf(readFileSync(file, 'utf8'))) {
        if (isExternal(target)) continue;
        const hash = target.indexOf('#');
        const path = decodeURIComponent(hash === -1 ? target : target.slice(0, hash));
        const anchor = hash === -1 ? '' : decodeURIComponent(target.slice(hash + 1));
        const dest = path === '' ? file : resolve(dirname(file), path);
        if (!existsSync(dest)) {
          broken.push(`${where}:${line}: ${target}: no such file`);
          continue;
        }
        if (anchor === '') continue;
        if (!statSync(dest).isFile() || !dest.endsWith('.md')) {
          broken.push(`${where}:${line}: ${target}: an anchor into something that is not a markdown file`);
        } else if (!anchorsOfFile(dest).has(anchor)) {
          broken.push(`${where}:${line}: ${target}: no heading "#${anchor}" in ${relative(root, dest)}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });

  it('every docs page is linked from the README', () => {
    const linked = new Set(
      linksOf(readFileSync(readme, 'utf8'))
        .filter(({ target }) => !isExternal(target))
        .map(({ target }) => resolve(root, decodeURIComponent(target.split('#')[0]!))),
    );
    const unlinked = docPages.filter((page) => !linked.has(page)).map((page) => relative(root, page));
    expect(unlinked).toEqual([]);
  });

  it('every docs page starts with a title, a one-sentence summary and a link back to the README', () => {
    const wrong: string[] = [];
    for (const page of docPages) {
      const [title, blank, summary] = readFileSync(page, 'utf8').split('\n');
      if (!/^# \S/.test(title ?? '') || blank !== '' || !summary?.trim()) wrong.push(relative(root, page));
      else if (!linksOf(readFileSync(page, 'utf8')).some(({ target }) => target === '../README.md')) {
        wrong.push(`${relative(root, page)}: no link back to ../README.md`);
      }
    }
    expect(wrong).toEqual([]);
  });
});
