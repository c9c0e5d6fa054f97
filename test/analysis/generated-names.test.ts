import { describe, expect, it } from 'vitest';
import { chapterTitle, momentsLine, questionAbout, stripPresentation, templateWords } from '../../src/analysis/phrases.js';

/** The words vidx writes around content (issue 34): what a chapter, a cluster line and a question call things. */
describe('generated names and lines', () => {
  const chapter = (kind: 'video' | 'audio' | 'image', summary: string, index: number, count: number, title: string | null = null) => ({ kind, summary, index, count, title });

  it('name a chapter without words by what it is, never by a bare time', () => {
    expect(chapterTitle(chapter('audio', '', 0, 2), 'en')).toBe('Voice memo, part 1');
    expect(chapterTitle(chapter('audio', '', 1, 2), 'de')).toBe('Sprachmemo, Teil 2');
    expect(chapterTitle(chapter('audio', '', 0, 1, 'Call with Anna'), 'en')).toBe('Voice memo');
    expect(chapterTitle(chapter('image', '', 0, 1, 'IMG_2034'), 'en')).toBe('Photo');
    expect(chapterTitle(chapter('image', '', 0, 1), 'de')).toBe('Foto');
    expect(chapterTitle(chapter('video', '', 0, 1, 'Evening walk'), 'en')).toBe('Evening walk');
    expect(chapterTitle(chapter('video', '', 2, 3, 'Evening walk'), 'de')).toBe('Evening walk, Teil 3');
    expect(chapterTitle(chapter('video', '  ', 0, 2), 'en')).toBe('Video, part 1');
    // A chapter with words is called by them.
    expect(chapterTitle(chapter('audio', 'Remember to buy oat milk.', 0, 2), 'de')).toBe('Remember to buy oat milk.');
  });

  it('count photos as photos and name items, in both languages', () => {
    expect(momentsLine(2, { image: 2 }, 'Beach, Garden', 'en')).toBe('2 photos: Beach, Garden');
    expect(momentsLine(1, { image: 1 }, 'Beach', 'de')).toBe('1 Foto: Beach');
    expect(momentsLine(3, { video: 1, image: 2 }, 'Vlog 0:10, Beach, Garden', 'en')).toBe('3 moments in 1 video and 2 photos: Vlog 0:10, Beach, Garden');
    expect(momentsLine(4, { video: 2, audio: 1, image: 1 }, 'x', 'de')).toBe('4 Momente in 2 Videos, 1 Sprachmemo und 1 Foto: x');
    expect(momentsLine(2, { video: 1 }, 'Final 0:52, Final 1:10', 'en')).toBe('2 moments in 1 video: Final 0:52, Final 1:10');
  });

  it('count a video and its copies as one item, and say the copies at the end', () => {
    expect(momentsLine(1, { video: 1 }, 'Baking 0:01', 'en', 2)).toBe('1 moment in 1 video: Baking 0:01 (also in 2 copies)');
    expect(momentsLine(1, { video: 1 }, 'Baking 0:01', 'de', 1)).toBe('1 Moment in 1 Video: Baking 0:01 (auch in 1 Kopie)');
    expect(momentsLine(1, { image: 1 }, 'Beach', 'en', 1)).toBe('1 photo: Beach (also in 1 copy)');
    expect(momentsLine(2, { image: 2 }, 'Beach, Garden', 'de', 3)).toBe('2 Fotos: Beach, Garden (auch in 3 Kopien)');
  });

  it('ask what was said about speech, when it was shown about on-screen text, and which photo shows it about photos', () => {
    expect(questionAbout('Herzlich willkommen', 'en', 'said')).toBe('What is said about “Herzlich willkommen”?');
    expect(questionAbout('Apfelkuchen', 'en', 'shown')).toBe('When is “Apfelkuchen” shown?');
    expect(questionAbout('Bäckerei', 'de', 'said')).toBe('Was wird zu „Bäckerei“ gesagt?');
    expect(questionAbout('Apfelkuchen', 'de', 'shown')).toBe('Wann wird „Apfelkuchen“ gezeigt?');
    expect(questionAbout('Lisbon', 'en', 'photo')).toBe('Which photo shows “Lisbon”?');
    expect(questionAbout('Lisbon', 'en', 'photos')).toBe('Which photos show “Lisbon”?');
    expect(questionAbout('Lisbon', 'de', 'photo')).toBe('Welches Foto zeigt „Lisbon“?');
    expect(questionAbout('Lisbon', 'de', 'photos')).toBe('Welche Fotos zeigen „Lisbon“?');
    expect(questionAbout('Berlin', 'en', 'anywhere')).toBe('Where does “Berlin” come up?');
    expect(questionAbout('Strand', 'de', 'anywhere')).toBe('Wo kommt „Strand“ vor?');
  });

  it('keep the placeholder older versions stored out of content, and know the new words as template words', () => {
    expect(stripPresentation('Picture without recognised text.')).toBe('');
    expect(stripPresentation('Bild ohne erkannten Text. Seen: beach.')).toBe('beach.');
    const words = templateWords();
    for (const w of ['photo', 'photos', 'memo', 'foto', 'sprachmemo', 'teil', 'gezeigt', 'picture', 'recognised', 'copies', 'kopien', 'welches', 'zeigt']) expect(words.has(w), w).toBe(true);
  });
});
