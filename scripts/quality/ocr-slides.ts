/** The slides of the OCR quality suite: texts with known words and the looks they are drawn in. */

/**
 * Where Debian puts the TrueType fonts the slides use (fonts-dejavu-core, fonts-liberation2, fonts-freefont-ttf).
 * @example
 * `${FONTS}/dejavu/DejaVuSans.ttf`;
 */
export const FONTS = '/usr/share/fonts/truetype';

/**
 * English slide texts of 2–6 words. Capital I is left out: in sans fonts it is the same glyph as l.
 * @example
 * ENGLISH[0]; // 'SUNSET OVER THE LAKE'
 */
export const ENGLISH = [
  'SUNSET OVER THE LAKE', 'Quarterly budget review', 'NIGHT FALLS', 'Welcome to the cooking show',
  'Morning run in the park', 'RED FOX JUMPS HIGH', 'Geology lecture part two', 'Harbour lights at dusk',
  'Team meeting notes', 'Fresh bread every morning', 'Mountain trail closed today', 'Final score three to one',
];

/**
 * German slide texts: 21 words with ä ö ü Ä Ö Ü or ß among 38 words.
 * @example
 * GERMAN[0]; // 'Grüße aus München'
 */
export const GERMAN = [
  'Grüße aus München', 'Schöne Straße am Fluss', 'Frische Brötchen vom Bäcker', 'Öffnungszeiten der Bäckerei',
  'Äpfel und Käse', 'Fußball für Männer', 'Übung macht den Meister', 'Frühstück mit Gemüse',
  'Der Schlüssel liegt unter der Tür', 'Größe und Gewicht', 'Weiße Wände',
];

/**
 * A way to draw a slide: font, size, colours, frame size, background.
 * @example
 * const look: Look = { name: 'x', width: 640, height: 360, font: 'dejavu/DejaVuSans.ttf', size: 24, color: 'white', background: 'blue' };
 */
export interface Look {
  name: string;
  width: number;
  height: number;
  font: string;
  size: number;
  color: string;
  background: string;
  /** A busy lavfi picture instead of the solid background. */
  source?: string;
  border?: number;
}

/**
 * Eight looks for English slides: DejaVu, Liberation and FreeFont faces, 24–60 px, light and dark text, 640 and 1280 wide.
 * @example
 * ENGLISH_LOOKS.map((l) => l.name); // ['dejavu-sans-24', …]
 */
export const ENGLISH_LOOKS: Look[] = [
  { name: 'dejavu-sans-24', width: 640, height: 360, font: 'dejavu/DejaVuSans.ttf', size: 24, color: 'white', background: '0x224466' },
  { name: 'dejavu-serif-34', width: 640, height: 360, font: 'dejavu/DejaVuSerif.ttf', size: 34, color: 'black', background: 'white' },
  { name: 'dejavu-bold-44', width: 1280, height: 720, font: 'dejavu/DejaVuSans-Bold.ttf', size: 44, color: 'yellow', background: '0x202020' },
  { name: 'dejavu-mono-40', width: 1280, height: 720, font: 'dejavu/DejaVuSansMono.ttf', size: 40, color: 'white', background: '0x880000' },
  { name: 'liberation-serif-40', width: 1280, height: 720, font: 'liberation2/LiberationSerif-Regular.ttf', size: 40, color: 'white', background: '0x224466' },
  { name: 'liberation-sans-26', width: 640, height: 360, font: 'liberation2/LiberationSans-Regular.ttf', size: 26, color: '0x103010', background: '0xe0e0c0' },
  { name: 'free-serif-60', width: 1280, height: 720, font: 'freefont/FreeSerif.ttf', size: 60, color: 'black', background: '0xc0d0ff' },
  { name: 'free-sans-bold-30', width: 640, height: 360, font: 'freefont/FreeSansBold.ttf', size: 30, color: 'white', background: 'darkgreen' },
];

/**
 * Four looks for German slides: two clean, two busy (a fractal and ffmpeg's test pattern under outlined captions).
 * @example
 * GERMAN_LOOKS.filter((l) => l.source).length; // 2
 */
export const GERMAN_LOOKS: Look[] = [
  { name: 'clean-dark', width: 1280, height: 720, font: 'dejavu/DejaVuSans-Bold.ttf', size: 44, color: 'white', background: '0x224466' },
  { name: 'clean-light', width: 1280, height: 720, font: 'liberation2/LiberationSerif-Regular.ttf', size: 40, color: 'black', background: 'white' },
  { name: 'busy-fractal', width: 1280, height: 720, font: 'freefont/FreeSansBold.ttf', size: 44, color: 'white', background: 'black', source: 'mandelbrot', border: 2 },
  { name: 'busy-pattern', width: 1280, height: 720, font: 'dejavu/DejaVuSans.ttf', size: 40, color: 'white', background: 'black', source: 'testsrc2', border: 2 },
];
