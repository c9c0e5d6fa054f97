const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ', lrm: '', rlm: '' };

/**
 * Plain text of one cue: drops ASS override blocks (`{\an8}`, `{\i1}`), HTML-like tags (`<i>`, `<font …>`,
 * WebVTT `<c.yellow>`, `<v Speaker>`, `<lang en>`, karaoke timestamps `<00:01.500>`) and ruby `<rt>` readings, decodes entities,
 * turns `\N` / `<br>` into line breaks and trims each line. Lines stay separated by `\n`.
 * @example
 * cleanCueText('{\\an8}<v Anna><i>Hello</i> &amp; bye</v>'); // 'Hello & bye'
 */
export function cleanCueText(raw: string): string {
  return raw
    .replace(/\{\\[^}]*\}/g, '')
    .replace(/\\N/g, '\n')
    .replace(/\\h/g, ' ')
    .replace(/<br\s*\/?>/gi, '\n')
    // Ruby annotations repeat the base text's pronunciation; searching wants the base text only.
    .replace(/<rt\b[^>]*>[\s\S]*?<\/rt>/gi, '')
    .replace(/<\/?[A-Za-z][^<>\n]*>|<\d[\d:.]*>/g, '')
    .replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, name: string) => {
      if (name[0] === '#') {
        const code = name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : parseInt(name.slice(1), 10);
        return Number.isFinite(code) && code > 0 && code < 0x110000 ? String.fromCodePoint(code) : m;
      }
      return ENTITIES[name.toLowerCase()] ?? m;
    })
    .split('\n')
    .map((l) => l.replace(/[ \t\u00a0]+/g, ' ').trim())
    .filter(Boolean)
    .join('\n');
}
