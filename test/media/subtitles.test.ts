import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { FileAccess } from '../../src/media/index.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractEmbeddedSubtitles, extractSubtitleStreams, textSubtitleStreams } from '../../src/media/embedded-subtitles.js';
import { probeMedia } from '../../src/media/probe.js';
import { runTool } from '../../src/media/run.js';
import { findSidecarSubtitles, listSidecarSubtitles } from '../../src/media/sidecar.js';
import { decodeSubtitleBytes, parseSubtitles, readSubtitleFile } from '../../src/media/subtitles.js';
import { ensureCorpus, type CorpusManifest } from '../support/corpus.js';

let corpus: CorpusManifest;
let tmp: string;
beforeAll(async () => {
  corpus = await ensureCorpus();
  tmp = await mkdtemp(join(process.cwd(), 'test', '.tmp', 'subs-'));
});
afterAll(async () => {
  await rm(tmp, { recursive: true, force: true });
});

describe('parseSubtitles: SRT', () => {
  it('reads BOM, CRLF, multi-line cues and strips markup', () => {
    const srt = '\uFEFF1\r\n00:00:01,000 --> 00:00:02,500\r\n<i>Hello</i> <b>there</b>\r\n{\\an8}second <font color="#ff0000">line</font>\r\n\r\n2\r\n00:01:02,050 --> 00:01:03,000\r\nBye &amp; thanks\r\n';
    expect(parseSubtitles(srt)).toEqual([
      { start: 1, end: 2.5, text: 'Hello there\nsecond line' },
      { start: 62.05, end: 63, text: 'Bye & thanks' },
    ]);
  });

  it('tolerates missing numbers, missing blank lines, dots, extra blanks, lone CR and no final newline', () => {
    const srt = [
      '', '', '00:00:01.5 --> 00:00:02,000', 'no number', '2', '00:00:03,000 --> 00:00:04,000 X1:10 X2:20 Y1:5 Y2:9', 'no blank before me',
      '', '', '', '3', '00:00:05,000 --> 00:00:06,000', 'first part', '', 'continued after a stray blank', '', '4', '00:00:07,000 --> 00:00:08,000', '   ',
      '5', '00:00:09,000 --> 00:00:10,000', 'last',
    ].join('\r');
    expect(parseSubtitles(srt)).toEqual([
      { start: 1.5, end: 2, text: 'no number' },
      { start: 3, end: 4, text: 'no blank before me' },
      { start: 5, end: 6, text: 'first part\ncontinued after a stray blank' },
      { start: 9, end: 10, text: 'last' },
    ]);
  });
});

describe('parseSubtitles: WebVTT', () => {
  it('skips header, NOTE, STYLE and REGION blocks, ids and settings; strips classes, voices, karaoke times', () => {
    const vtt = [
      'WEBVTT Kind: captions', 'Language: en', '',
      'STYLE', '::cue { color: yellow }', '',
      'REGION', 'id:fred width:40%', '',
      'NOTE this is', 'a two line comment', '',
      'intro', '00:01.000 --> 00:02.000 align:start position:10%', '<v Roger Bingham><c.yellow.bg_blue>We are</c> in New York</v>', '',
      '00:00:02.500 --> 00:00:04.000', 'Karaoke <00:00:03.000>words &lt;3 &nbsp;here', '<lang de>Hallo</lang> <ruby>漢<rt>kan</rt></ruby>', '',
      'NOTE trailing comment', '',
    ].join('\n');
    expect(parseSubtitles(vtt)).toEqual([
      { start: 1, end: 2, text: 'We are in New York' },
      { start: 2.5, end: 4, text: 'Karaoke words <3 here\nHallo 漢' },
    ]);
  });

  it('sorts cues by start and drops cues that end up empty', () => {
    const vtt = 'WEBVTT\n\n00:05.000 --> 00:06.000\nlater\n\n00:01.000 --> 00:02.000\n<i></i>\n\n00:03.000 --> 00:04.000\nearlier\n';
    expect(parseSubtitles(vtt).map((c) => c.text)).toEqual(['earlier', 'later']);
  });
});

describe('decodeSubtitleBytes', () => {
  it('decodes UTF-16 with BOM and falls back to Windows-1252', () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('Grüße', 'utf16le')]);
    expect(decodeSubtitleBytes(utf16)).toBe('Grüße');
    expect(decodeSubtitleBytes(Buffer.from([0x47, 0x72, 0xfc, 0xdf, 0x65]))).toBe('Grüße');
    expect(decodeSubtitleBytes(Buffer.from('\uFEFFok', 'utf8'))).toBe('ok');
  });
});

describe('sidecar subtitles', () => {
  it('finds the corpus sidecars by language and reads them', async () => {
    const de = await findSidecarSubtitles(corpus.german.path, { language: 'de' });
    expect(de).toMatchObject({ path: corpus.german.sidecars[0].path, format: 'srt', language: 'de' });
    const en = await findSidecarSubtitles(corpus.german.path, { language: 'eng' });
    expect(en).toMatchObject({ path: corpus.german.sidecars[1].path, format: 'vtt', language: 'en' });
    for (const side of corpus.german.sidecars) {
      const cues = await readSubtitleFile(FileAccess.unrestricted(), side.path);
      expect(cues).toEqual(side.cues);
    }
    expect(await findSidecarSubtitles(corpus.silent.path)).toBeNull();
  });

  it('prefers the language, then the plain name, and ignores other videos', async () => {
    const dir = await mkdtemp(join(tmp, 'side-'));
    for (const n of ['Film.mkv', 'Film.srt', 'Film.pt-BR.vtt', 'Film.deu.SRT', 'Film.mkv.fr.srt', 'Film2.srt', 'Film.forced.srt', 'Other.en.srt']) {
      await writeFile(join(dir, n), '');
    }
    const video = join(dir, 'Film.mkv');
    expect((await listSidecarSubtitles(video)).map((s) => [s.path.slice(dir.length + 1), s.language])).toEqual([
      ['Film.deu.SRT', 'deu'],
      ['Film.mkv.fr.srt', 'fr'],
      ['Film.srt', undefined],
      ['Film.pt-BR.vtt', 'pt-BR'],
    ]);
    expect((await findSidecarSubtitles(video, { language: 'de-AT' }))?.language).toBe('deu');
    expect((await findSidecarSubtitles(video, { language: 'pt' }))?.language).toBe('pt-BR');
    expect((await findSidecarSubtitles(video, { language: 'ja' }))?.path).toBe(join(dir, 'Film.srt'));
    expect((await findSidecarSubtitles(video))?.path).toBe(join(dir, 'Film.srt'));
  });
});

describe('extractEmbeddedSubtitles', () => {
  it('extracts the mov_text track of the slides video with the known cues', async () => {
    const got = await extractEmbeddedSubtitles(corpus.slides.path, { language: 'en' });
    expect(got?.stream).toMatchObject({ codec: 'mov_text', language: 'eng' });
    expect(got?.cues).toHaveLength(corpus.slides.subtitles.cues.length);
    got!.cues.forEach((c, i) => {
      const want = corpus.slides.subtitles.cues[i];
      expect(c.text).toBe(want.text);
      expect(c.start).toBeCloseTo(want.start, 2);
      expect(c.end).toBeCloseTo(want.end, 2);
    });
  });

  it('prefers the requested language among several tracks and returns null without any', async () => {
    const both = join(tmp, 'two-tracks.mkv');
    await runTool('ffmpeg', ['-v', 'error', '-y', '-i', corpus.german.path, '-i', corpus.german.sidecars[0].path, '-i', corpus.german.sidecars[1].path,
      '-map', '0:v', '-map', '1', '-map', '2', '-c:v', 'copy', '-c:s', 'srt', '-metadata:s:s:0', 'language=ger', '-metadata:s:s:1', 'language=eng',
      '-disposition:s:1', 'default', both]);
    expect((await extractEmbeddedSubtitles(both, { language: 'de' }))?.cues).toEqual(corpus.german.sidecars[0].cues);
    expect((await extractEmbeddedSubtitles(both, { language: 'en' }))?.cues).toEqual(corpus.german.sidecars[1].cues);
    expect((await extractEmbeddedSubtitles(both, { language: 'fr' }))?.stream.language).toBe('eng');
    expect(await extractEmbeddedSubtitles(corpus.silent.path)).toBeNull();
  });

  it('extracts every text track in one run, in container order', async () => {
    const both = join(tmp, 'two-tracks.mkv');
    const probe = await probeMedia(both, { checkIntegrity: false });
    const tracks = await extractSubtitleStreams(both, textSubtitleStreams(probe.subtitles));
    expect(tracks.map((t) => t.stream.language)).toEqual(['ger', 'eng']);
    expect(tracks[0].cues).toEqual(corpus.german.sidecars[0].cues);
    expect(tracks[1].cues).toEqual(corpus.german.sidecars[1].cues);
    expect(await extractSubtitleStreams(both, [])).toEqual([]);
  });
});
