/**
 * Realistic episodes for the phrase tests: a caption on screen and what is said, for cooking, gardening,
 * football and a birthday, in English and German, three episodes each. Speech keeps the cut clauses users
 * saw as topics ("Tomatoes need water every", "Kuchen kommt fuer vierzig", "Keep your eyes", "Now blow").
 */
export interface Episode {
  media_id: string;
  idx: number;
  start: number;
  end: number;
  /** What is said. */
  text: string;
  /** The caption on screen. */
  screen: string;
}

/**
 * The text topic discovery reads for an episode, joined as the store joins it: screen text, the JSON list
 * of tags (none here), then what is said.
 * @example
 * stored(ENGLISH[0]); // 'Apple Cake Recipe [] Apple Cake Recipe. Today we bake…'
 */
export function stored(e: Episode): string {
  return `${e.screen} [] ${e.text}`;
}

const episodes = (media: string, texts: [string, string][]): Episode[] =>
  texts.map(([screen, text], idx) => ({ media_id: media, idx, start: idx * 30, end: idx * 30 + 30, text, screen }));

/** English: cooking, gardening, football, birthday. */
export const ENGLISH: Episode[] = [
  ...episodes('cooking', [
    ['Apple Cake Recipe', 'Apple Cake Recipe. Today we bake an apple cake with cinnamon and butter. First peel the apples and cut them into thin slices.'],
    ['Baking Basics', 'Mix the flour and sugar in a large bowl, then add two eggs and the melted butter. The apple cake needs forty minutes in the oven.'],
    ['Golden Crust', 'Keep your eyes on the oven. Our apple cake is golden brown now. Let it cool down before you cut it.'],
  ]),
  ...episodes('garden', [
    ['Greenhouse Diary', 'Tomatoes need water every morning. Water the tomato plants early, before the sun gets hot.'],
    ['Garden Tips', 'These tomato plants grow fast in the greenhouse. Tie the young stems to a wooden stick so they do not break.'],
    ['Harvest Time', 'Look at the ripe tomatoes on our tomato plants. We pick them and put them in a basket.'],
  ]),
  ...episodes('football', [
    ['Youth Academy', 'Penalty shot training with the youth team. The goalkeeper dives to the left during penalty shot training.'],
    ['Match Preparation', 'The striker takes the penalty shot and scores. Keep your eyes on the ball, says the coach.'],
    ['Goalkeeper Drills', 'Another penalty shot, and this time the goalkeeper saves it. The team practises free kicks after the break.'],
  ]),
  ...episodes('birthday', [
    ['Family Party', 'Happy birthday, Anna! Everybody sings while the birthday cake comes in with twenty candles.'],
    ['Birthday Wishes', 'Now blow. Anna blows out the candles on her birthday cake and makes a wish.'],
    ['Gift Table', 'Anna opens her birthday presents: a red bicycle and a book about horses.'],
  ]),
];

/** German: Backen, Garten, Fußball, Geburtstag (some in the ASCII spelling subtitles use: "fuer", "Fussball"). */
export const GERMAN: Episode[] = [
  ...episodes('backen', [
    ['Omas Backstube', 'Apfelkuchen nach Omas Rezept. Heute backen wir einen leckeren Apfelkuchen mit Zimt und Butter.'],
    ['Backschule', 'Zuerst schälen wir die Äpfel und schneiden sie in dünne Scheiben. Der Apfelkuchen kommt fuer vierzig Minuten in den heißen Ofen.'],
    ['Goldene Kruste', 'Kuchen kommt fuer vierzig Minuten in den Ofen. Der Apfelkuchen ist jetzt goldbraun und duftet nach Zimt.'],
  ]),
  ...episodes('garten', [
    ['Gartentagebuch', 'Die Tomatenpflanzen brauchen jeden Morgen frisches Wasser. Gießen Sie die Tomatenpflanzen am besten früh.'],
    ['Gartentipps', 'Im Gewächshaus wachsen die Tomatenpflanzen schnell. Wir binden die jungen Triebe an einen Holzstab.'],
    ['Erntezeit', 'Schau mal, die reifen Tomaten an unseren Tomatenpflanzen. Wir pflücken sie und legen sie in einen Korb.'],
  ]),
  ...episodes('fussball', [
    ['Nachwuchsakademie', 'Elfmeter Training mit der Jugendmannschaft. Der Torwart springt beim Elfmeter nach links.'],
    ['Spielvorbereitung', 'Der Stürmer schießt den Elfmeter und trifft. Behaltet den Ball im Auge, sagt der Trainer.'],
    ['Torwarttraining', 'Noch ein Elfmeter, diesmal hält der Torwart. Nach der Pause übt die Mannschaft Freistöße.'],
  ]),
  ...episodes('geburtstag', [
    ['Familienfeier', 'Alles Gute zum Geburtstag, Anna! Alle singen, während die Geburtstagstorte mit zwanzig Kerzen kommt.'],
    ['Glückwünsche', 'Jetzt pusten. Anna pustet die Kerzen auf ihrer Geburtstagstorte aus und wünscht sich etwas.'],
    ['Geschenketisch', 'Anna packt ihre Geschenke aus: ein rotes Fahrrad und ein Buch über Pferde.'],
  ]),
];
