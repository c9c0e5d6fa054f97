/**
 * Everyday scenes and objects for zero-shot visual tags, as [English, German] labels. The English label
 * goes into the image-text prompt; the label in the video's language goes into summaries and the index.
 */
export const VISUAL_VOCABULARY: readonly (readonly [string, string])[] = [
  ['beach', 'Strand'], ['sea', 'Meer'], ['lake', 'See'], ['river', 'Fluss'], ['mountains', 'Berge'], ['forest', 'Wald'],
  ['snow', 'Schnee'], ['sunset', 'Sonnenuntergang'], ['night sky', 'Nachthimmel'], ['city street', 'Straße in der Stadt'],
  ['buildings', 'Gebäude'], ['church', 'Kirche'], ['bridge', 'Brücke'], ['garden', 'Garten'], ['park', 'Park'],
  ['field', 'Feld'], ['desert', 'Wüste'], ['waterfall', 'Wasserfall'], ['kitchen', 'Küche'], ['living room', 'Wohnzimmer'],
  ['office', 'Büro'], ['classroom', 'Klassenzimmer'], ['stage', 'Bühne'], ['concert', 'Konzert'], ['restaurant', 'Restaurant'],
  ['supermarket', 'Supermarkt'], ['airport', 'Flughafen'], ['train', 'Zug'], ['car', 'Auto'], ['bus', 'Bus'],
  ['bicycle', 'Fahrrad'], ['boat', 'Boot'], ['airplane', 'Flugzeug'], ['dog', 'Hund'], ['cat', 'Katze'], ['horse', 'Pferd'],
  ['bird', 'Vogel'], ['cow', 'Kuh'], ['fish', 'Fisch'], ['people', 'Menschen'], ['crowd', 'Menschenmenge'], ['child', 'Kind'],
  ['baby', 'Baby'], ['family', 'Familie'], ['person speaking', 'sprechende Person'], ['portrait', 'Porträt'],
  ['football match', 'Fußballspiel'], ['ice hockey', 'Eishockey'], ['tennis', 'Tennis'], ['swimming', 'Schwimmen'],
  ['skiing', 'Skifahren'], ['running', 'Laufen'], ['cycling race', 'Radrennen'], ['stadium', 'Stadion'], ['gym', 'Fitnessstudio'],
  ['cake', 'Kuchen'], ['food', 'Essen'], ['cooking', 'Kochen'], ['drinks', 'Getränke'], ['birthday party', 'Geburtstagsfeier'],
  ['wedding', 'Hochzeit'], ['christmas', 'Weihnachten'], ['fireworks', 'Feuerwerk'], ['flowers', 'Blumen'], ['tree', 'Baum'],
  ['computer screen', 'Computerbildschirm'], ['presentation slide', 'Präsentationsfolie'], ['chart', 'Diagramm'],
  ['text document', 'Textdokument'], ['map', 'Landkarte'], ['book', 'Buch'], ['phone', 'Telefon'], ['television', 'Fernseher'],
  ['musical instrument', 'Musikinstrument'], ['guitar', 'Gitarre'], ['piano', 'Klavier'], ['painting', 'Gemälde'],
  ['rain', 'Regen'], ['clouds', 'Wolken'], ['sky', 'Himmel'], ['road', 'Straße'], ['house', 'Haus'], ['pool', 'Schwimmbad'],
  ['playground', 'Spielplatz'], ['animals', 'Tiere'], ['toys', 'Spielzeug'], ['colour test pattern', 'Farbtestbild'],
];

/** The prompt the image-text model sees for a label. */
export function visualPrompt(englishLabel: string): string {
  return `a photo of ${englishLabel}`;
}
