/**
 * The judged collection: a home archive of short English and German videos with subtitles (cooking,
 * woodwork, a birthday, a beach holiday, a hike, a bicycle repair), two slide shows read only through
 * on-screen text recognition, and a 60-minute lecture with a line every 30 s. Titles are chosen as people
 * title their videos, so a title often names what every moment is about.
 */
import type { MediaSpec, TimedLine } from './types.js';

const r2 = (n: number): number => Math.round(n * 100) / 100;

/**
 * A video with one subtitle line every `every` seconds, each shown for `every − 1` seconds (a gap
 * between lines, as subtitles have).
 * @example
 * subtitled('beach', 'Summer holiday at the sea', 'en', ['The kids build a sandcastle.']).lines[0];
 * // { start: 0.5, end: 4.5, text: 'The kids build a sandcastle.' }
 */
export function subtitled(id: string, title: string, language: 'en' | 'de', texts: string[], every = 5): MediaSpec {
  const lines: TimedLine[] = texts.map((text, i) => ({ start: r2(i * every + 0.5), end: r2(i * every + every - 0.5), text }));
  return { id, title, language, durationSec: texts.length * every, lines, slides: [] };
}

/**
 * A slide show without subtitles: each text on screen for `each` seconds, one hard cut between slides.
 * @example
 * slideshow('garden', 'Garden club', 'en', ['Tomato Seedlings']).slides[0]; // { start: 0, end: 6, text: 'Tomato Seedlings' }
 */
export function slideshow(id: string, title: string, language: 'en' | 'de', texts: string[], each = 6): MediaSpec {
  const slides = texts.map((text, i) => ({ start: i * each, end: (i + 1) * each, text }));
  return { id, title, language, durationSec: texts.length * each, lines: [], slides };
}

// The lecture: 120 parts, each a different subject in a different city, so a query naming a subject
// and a city has exactly one line holding both, and many lines holding one of them.
const SUBJECTS = ['trade', 'farming', 'music', 'painting', 'schools', 'churches', 'bridges', 'harbours', 'coins', 'armies', 'bakeries', 'printing'];
const CITIES = ['Venice', 'Lisbon', 'Prague', 'Vienna', 'Krakow', 'Bruges', 'Seville', 'Lyon', 'Hamburg', 'Naples'];
const LECTURE_EVERY = 30;

/**
 * The text of part `n` (1-based) of the lecture.
 * @example
 * lecturePart(77); // 'In part 77 we talk about schools in Seville.'
 */
export function lecturePart(n: number): string {
  return `In part ${n} we talk about ${SUBJECTS[(n - 1) % SUBJECTS.length]} in ${CITIES[Math.floor((n - 1) / SUBJECTS.length)]}.`;
}

function lecture(): MediaSpec {
  const parts = SUBJECTS.length * CITIES.length;
  const lines = Array.from({ length: parts }, (_, i) => ({ start: i * LECTURE_EVERY + 1, end: i * LECTURE_EVERY + 9, text: lecturePart(i + 1) }));
  return { id: 'lecture', title: 'History of European cities, lecture', language: 'en', durationSec: parts * LECTURE_EVERY, lines, slides: [] };
}

/**
 * Every medium of the judged collection.
 * @example
 * CORPUS.find((m) => m.id === 'apple-cake')?.title; // 'Apple cake vlog'
 */
export const CORPUS: MediaSpec[] = [
  subtitled('apple-cake', 'Apple cake vlog', 'en', [
    'Hi everyone, welcome back to my kitchen.',
    "Today we bake my grandmother's famous apple cake.",
    'First I peel and slice six apples.',
    'Then butter, sugar and three eggs go into the bowl.',
    'I add a spoon of cinnamon for the smell.',
    'The flour goes in slowly so nothing gets lumpy.',
    'Now the dough goes into the tin.',
    'The apple slices go on top in a circle.',
    'The oven is hot, one hundred and eighty degrees.',
    'After forty minutes, the kitchen smells wonderful.',
    'Let it cool down before you cut it.',
    'Thanks for watching, see you next week.',
  ]),
  subtitled('bread-grandpa', 'Bread baking with Grandpa', 'en', [
    'Today grandpa shows me how he bakes his sourdough bread.',
    'The starter has been living in his fridge for thirty years.',
    'He mixes flour, water and salt by hand.',
    'The dough rests overnight under a towel.',
    'In the morning he folds it again and again.',
    'He scores the loaf with a razor blade.',
    'The bread bakes in a cast iron pot.',
    'Listen to that crust crackle!',
  ]),
  subtitled('kitchen-table', 'Building a kitchen table', 'en', [
    'This week I build a kitchen table from old oak boards.',
    'The boards are glued and clamped overnight.',
    'Next I cut the legs to length with a hand saw.',
    'Now I sand the top with fine sandpaper.',
    'Two coats of linseed oil bring out the grain.',
    'My daughter helps me carry it into the kitchen.',
  ]),
  subtitled('emma-birthday', "Emma's seventh birthday", 'en', [
    'Everybody sings happy birthday in the living room.',
    'Emma blows out all seven candles at once.',
    'The kids play musical chairs in the garden.',
    'Grandma brought a chocolate cake with strawberries.',
    'Opening presents: a red bicycle!',
    'Later the chairs go back into the house.',
  ]),
  subtitled('beach', 'Summer holiday at the sea', 'en', [
    'The kids build a sandcastle near the water.',
    'Dad forgot the sunscreen again.',
    'We eat fish and chips on the pier.',
    'The waves are too big for swimming today.',
    'In the evening we watch the sun go down.',
  ]),
  lecture(),
  slideshow('garden-club', 'Garden club evening', 'en', ['Tomato Seedlings', 'Compost Heap Basics', 'Spring Planting Calendar']),
  subtitled('wanderung', 'Wanderung in den Alpen', 'de', [
    'Wir starten früh am Morgen am Parkplatz.',
    'Der Weg führt durch einen dichten Wald.',
    'Oben auf dem Gipfel beginnt es plötzlich zu regnen.',
    'Zum Glück haben wir unsere Regenjacken dabei.',
    'In der Hütte gibt es heiße Suppe und Apfelstrudel.',
    'Auf dem Rückweg sehen wir drei Gämsen.',
    'Das war eine unserer schönsten Wanderungen.',
  ]),
  subtitled('omas-apfelkuchen', 'Omas Apfelkuchen', 'de', [
    'Heute backen wir zusammen mit Oma.',
    'Zuerst schälen wir die Äpfel.',
    'Der Teig braucht Butter, Zucker und Mehl.',
    'Dann kommt der Apfelkuchen für eine Stunde in den Ofen.',
    'Der Kuchen duftet schon im ganzen Haus.',
    'Mit Sahne schmeckt er am besten.',
  ]),
  subtitled('fahrrad', 'Fahrrad reparieren', 'de', [
    'Mein Hinterrad hat einen Platten.',
    'Zuerst nehme ich den Schlauch aus dem Reifen.',
    'Im Wasserbad sieht man sofort die kleinen Blasen.',
    'Das Loch wird mit einem Flicken geschlossen.',
    'Jetzt pumpe ich den Reifen wieder auf.',
  ]),
  slideshow('vereinsabend', 'Vortrag beim Vereinsabend', 'de', ['Jahresbericht 2025', 'Kassenstand und Spenden', 'Termine im Sommer']),
];
