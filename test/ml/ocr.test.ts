import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createOcr, ocrModelPaths, type Ocr, type Quad } from '../../src/ml/ocr/index.js';
import { loadCharset } from '../../src/ml/ocr/assets.js';
import { ctcGreedy } from '../../src/ml/ocr/ctc.js';
import { expandRect, minAreaRect } from '../../src/ml/ocr/geometry.js';
import { readingOrder } from '../../src/ml/ocr/reading-order.js';
import { mergeLineBoxes } from '../../src/ml/ocr/line-merge.js';
import { getOcrModels } from '../../src/ml/ocr/sessions.js';
import { renderFile, renderFrame, scratchDir } from './fixtures.js';

describe('OCR geometry and decoding', () => {
  it('finds the minimum-area rectangle of a rotated point set', () => {
    // A 10 x 2 rectangle turned by 30°.
    const c = Math.cos(Math.PI / 6);
    const s = Math.sin(Math.PI / 6);
    const pts = [[0, 0], [10, 0], [10, 2], [0, 2], [5, 1]].map(([x, y]) => [x * c - y * s, x * s + y * c] as [number, number]);
    const r = minAreaRect(pts);
    expect(Math.max(r.width, r.height)).toBeCloseTo(10, 6);
    expect(Math.min(r.width, r.height)).toBeCloseTo(2, 6);
  });

  it('grows a rectangle evenly on every side', () => {
    expect(expandRect([[0, 0], [10, 0], [10, 2], [0, 2]], 1)).toEqual([[-1, -1], [11, -1], [11, 3], [-1, 3]]);
  });

  it('orders boxes top-to-bottom, then left-to-right within a row', () => {
    const box = (x: number, y: number): Quad => [[x, y], [x + 50, y], [x + 50, y + 20], [x, y + 20]];
    // Row 1 holds two boxes whose tops differ by 4 px; row 2 sits below.
    expect(readingOrder([box(0, 100), box(200, 4), box(0, 0)])).toEqual([2, 1, 0]);
  });

  it('joins pieces of one line but not stacked lines', () => {
    const box = (x0: number, x1: number, y: number): Quad => [[x0, y], [x1, y], [x1, y + 40], [x0, y + 40]];
    expect(mergeLineBoxes([box(0, 100, 0), box(110, 300, 2)])).toHaveLength(1);
    expect(mergeLineBoxes([box(0, 100, 0), box(0, 100, 50)])).toHaveLength(2);
    expect(mergeLineBoxes([box(0, 100, 0), box(200, 300, 0)])).toHaveLength(2);
  });

  it('decodes CTC with blank 0, repeats collapsed and dictionary characters kept as they are', () => {
    const charset = ['', 'a', 'ä', 'ü', ' '];
    // Steps: ä ä blank ü space a -> "äü a"
    const steps = [2, 2, 0, 3, 4, 1];
    const probs = new Float32Array(steps.length * charset.length);
    steps.forEach((c, t) => {
      probs[t * charset.length + c] = 0.9;
    });
    expect(ctcGreedy(probs, steps.length, charset.length, charset)).toEqual({
      text: 'äü a',
      confidence: expect.closeTo(0.9, 5),
      // Each character keeps the step it was first read at: what word spacing maps back to pixels.
      chars: [{ char: 'ä', step: 0 }, { char: 'ü', step: 3 }, { char: ' ', step: 4 }, { char: 'a', step: 5 }],
    });
  });

  it('uses the PP-OCR dictionary: blank first, space last; ä ü Ü are in it, ö ß Ä Ö are not', () => {
    const charset = loadCharset(ocrModelPaths().dictionary);
    expect(charset).toHaveLength(6625); // the recogniser's class count
    expect(charset[0]).toBe('');
    expect(charset.at(-1)).toBe(' ');
    for (const c of ['ä', 'ü', 'Ü']) expect(charset).toContain(c);
    for (const c of ['ö', 'ß', 'Ä', 'Ö']) expect(charset).not.toContain(c);
  });
});

describe('OCR on frames rendered by ffmpeg drawtext', () => {
  let ocr: Ocr;
  let dir: Awaited<ReturnType<typeof scratchDir>>;

  beforeAll(async () => {
    dir = await scratchDir();
    ocr = createOcr();
  });

  afterAll(async () => {
    await ocr?.close();
    await dir?.dispose();
  });

  const texts = (lines: { text: string }[]) => lines.map((l) => l.text);

  it('reads white slide text on blue from a decoded 1280x720 RGB frame', async () => {
    const frame = await renderFrame(dir.path, {
      width: 1280, height: 720, background: 'blue', lines: [{ text: 'Quarterly Results 2024', size: 64 }],
    });
    const lines = await ocr.recognize(frame);
    expect(texts(lines)).toEqual(['Quarterly Results 2024']);
    const [line] = lines;
    expect(line.confidence).toBeGreaterThan(0.8);
    // The box surrounds the centred text and stays inside the frame.
    const xs = line.box.map((p) => p[0]);
    const ys = line.box.map((p) => p[1]);
    expect(Math.min(...xs)).toBeGreaterThan(200);
    expect(Math.max(...xs)).toBeLessThan(1080);
    expect(Math.min(...ys)).toBeLessThan(340);
    expect(Math.max(...ys)).toBeGreaterThan(380);
  });

  it('reads mixed-case text from an encoded PNG buffer', async () => {
    const png = await renderFile(dir.path, {
      width: 1280, height: 720, background: 'white',
      lines: [{ text: 'Hello World from vidx', size: 48, color: 'black', x: 100, y: 300 }],
    }, 'hello.png');
    expect(texts(await ocr.recognize(await readFile(png)))).toEqual(['Hello World from vidx']);
  });

  it('returns two lines of a 640x360 JPEG in reading order', async () => {
    const jpg = await renderFile(dir.path, {
      width: 640, height: 360, background: '0x202020',
      // Drawn bottom line first so the order cannot come from drawing order.
      lines: [
        { text: 'Second line below', size: 32, color: 'yellow', x: 60, y: 200 },
        { text: 'First line on top', size: 32, color: 'white', x: 60, y: 100 },
      ],
    }, 'two.jpg');
    expect(texts(await ocr.recognize(await readFile(jpg)))).toEqual(['First line on top', 'Second line below']);
  });

  it('reads upside-down text through the direction classifier', async () => {
    const frame = await renderFrame(dir.path, {
      width: 1280, height: 720, background: 'white', upsideDown: true,
      lines: [{ text: 'Upside down text here', size: 48, color: 'black', x: 100, y: 300 }],
    });
    expect(texts(await ocr.recognize(frame))).toEqual(['Upside down text here']);
  });

  it('reads a German line; umlauts are compared folded because the model rarely emits them', async () => {
    // ä and ü are in the dictionary (see above) and survive decoding, but PP-OCRv4's recogniser
    // (trained mostly on Chinese and English) usually ranks plain a/u above them: on this frame it
    // gives ü ~0.4 against u ~0.6. Asserting exact umlauts would test the model's luck, not vidx.
    const frame = await renderFrame(dir.path, {
      width: 1280, height: 720, background: '0x336699',
      lines: [{ text: 'Müller fährt über Brücken', size: 56, x: 100, y: 300 }],
    });
    const lines = texts(await ocr.recognize(frame));
    expect(lines).toHaveLength(1);
    const fold = (s: string) => s.replace(/[äÄ]/g, 'a').replace(/[üÜ]/g, 'u').replace(/[öÖ]/g, 'o');
    expect(fold(lines[0])).toBe('Muller fahrt uber Brucken');
  });

  it('shares one set of sessions between engines', async () => {
    const other = createOcr();
    const frame = await renderFrame(dir.path, { width: 640, height: 360, background: 'white', lines: [] });
    await other.recognize(frame);
    const first = await getOcrModels();
    await ocr.recognize(frame);
    expect(await getOcrModels()).toBe(first);
    // Closing one engine keeps the sessions for the other.
    await other.close();
    expect(await getOcrModels()).toBe(first);
    await expect(other.recognize(frame)).rejects.toThrow(/closed/);
  });

  it('finds nothing on a blank frame', async () => {
    const frame = await renderFrame(dir.path, { width: 640, height: 360, background: 'blue', lines: [] });
    expect(await ocr.recognize(frame)).toEqual([]);
  });

  it('rejects a frame whose data does not match its size', async () => {
    await expect(ocr.recognize({ data: new Uint8Array(10), width: 4, height: 4 })).rejects.toThrow(/expected 48/);
  });
});
