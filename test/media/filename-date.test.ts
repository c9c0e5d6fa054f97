import { describe, expect, it } from 'vitest';
import { dateFromFileName } from '../../src/media/filename-date.js';

/** The expected ISO date for a local clock time (names are read in the server's zone). */
const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0, ms = 0): string => new Date(y, mo - 1, d, h, mi, s, ms).toISOString();
const now = new Date('2024-06-01T12:00:00Z');

describe('dateFromFileName', () => {
  it.each([
    ['IMG-20190714-WA0003.jpg', local(2019, 7, 14)],
    ['VID-20190714-WA0003.mp4', local(2019, 7, 14)],
    ['PTT-20190714-WA0012.opus', local(2019, 7, 14)],
    ['IMG_20190714_093012.jpg', local(2019, 7, 14, 9, 30, 12)],
    ['VID_20190714_093012.mp4', local(2019, 7, 14, 9, 30, 12)],
    ['PXL_20210801_100000123.mp4', local(2021, 8, 1, 10, 0, 0, 123)],
    ['PXL_20210801_100000123.MP.jpg', local(2021, 8, 1, 10, 0, 0, 123)],
    ['20190714_093012.mp4', local(2019, 7, 14, 9, 30, 12)],
    ['Screenshot_20231005-143211.png', local(2023, 10, 5, 14, 32, 11)],
    ['Screenshot_20231005-143211_Chrome.jpg', local(2023, 10, 5, 14, 32, 11)],
    ['Screen_Recording_20231005-143211_YouTube.mp4', local(2023, 10, 5, 14, 32, 11)],
    ['Screenshot 2023-10-05 at 14.32.11.png', local(2023, 10, 5, 14, 32, 11)],
    ['Screen Recording 2023-10-05 at 14.32.11.mov', local(2023, 10, 5, 14, 32, 11)],
    ['Screen Shot 2019-07-14 at 9.30.12 PM.png', local(2019, 7, 14, 21, 30, 12)],
    ['Screenshot 2023-10-05 at 2.32.11\u202fPM.png', local(2023, 10, 5, 14, 32, 11)],
    ['Screenshot 2023-10-05 at 12.05.00 AM.png', local(2023, 10, 5, 0, 5, 0)],
    ['Bildschirmfoto 2023-10-05 um 14.32.11.png', local(2023, 10, 5, 14, 32, 11)],
    ['Bildschirmaufnahme 2023-10-05 um 14.32.11.mov', local(2023, 10, 5, 14, 32, 11)],
    ['Screenshot 2023-10-05 143211.png', local(2023, 10, 5, 14, 32, 11)],
    ['Screen Recording 2023-10-05 143211.mp4', local(2023, 10, 5, 14, 32, 11)],
    ['Desktop 2023.10.05 - 14.32.11.01.mp4', local(2023, 10, 5, 14, 32, 11)],
    ['/media/phone/DCIM/IMG_20190714_093012.jpg', local(2019, 7, 14, 9, 30, 12)],
    // Issue 42: a date anywhere in the name, with the time where the name gives one.
    ['WhatsApp Video 2024-04-03 at 09.12.44.mp4', local(2024, 4, 3, 9, 12, 44)],
    ['WhatsApp Image 2024-04-03 at 09.12.44 (1).jpeg', local(2024, 4, 3, 9, 12, 44)],
    ['WhatsApp Audio 2024-04-03 at 9.12.44 PM.m4a', local(2024, 4, 3, 21, 12, 44)],
    ['Sprachmemo 2024-03-02 Omas Geburtstag.m4a', local(2024, 3, 2)],
    ['Aufnahme 2024-03-02 um 18.05.10.m4a', local(2024, 3, 2, 18, 5, 10)],
    ['Party 2019-07-14.mp4', local(2019, 7, 14)],
    ['2019-07-14 09-12-44 Strand.mp4', local(2019, 7, 14, 9, 12, 44)],
    ['meeting_2019-07-14_09.12.44.mp4', local(2019, 7, 14, 9, 12, 44)],
    ['2019-07-14T09:12:44.mov', local(2019, 7, 14, 9, 12, 44)],
    ['Konzert 2019-07-14 091244.mp4', local(2019, 7, 14, 9, 12, 44)],
    ['Backup-2019-07-14-2.mp4', local(2019, 7, 14)],
    ['Urlaub 2023.08.14.mp4', local(2023, 8, 14)],
    ['Urlaub 2023.08.14 15.30.00.mp4', local(2023, 8, 14, 15, 30, 0)],
    ['Best of 20190714_093012.mp4', local(2019, 7, 14, 9, 30, 12)],
    ['clip-20240403-091244.mp4', local(2024, 4, 3, 9, 12, 44)],
    ['1234_20190714_093012.jpg', local(2019, 7, 14, 9, 30, 12)],
    ['Geburtstag (2019-07-14).mp4', local(2019, 7, 14)],
    ['Copy of 2019-07-14 and again 2019-07-14.mp4', local(2019, 7, 14)],
    ['1985-06-12 Hochzeit (VHS).mp4', local(1985, 6, 12)],
  ])('reads %s', (name, expected) => {
    expect(dateFromFileName(name, now)).toBe(expected);
  });

  it.each([
    ['a date in the future', 'IMG_20990714_093012.jpg'],
    ['year 0000', 'IMG-00000714-WA0003.jpg'],
    ['year 0000 (camera)', '00000000_000000.mp4'],
    ['month 13', 'IMG_20191314_093012.jpg'],
    ['February 30', 'VID-20190230-WA0001.mp4'],
    ['hour 24', 'IMG_20190714_243012.jpg'],
    ['minute 60', 'Screenshot 2023-10-05 at 14.60.11.png'],
    ['no date', 'holiday.mp4'],
    ['a longer digit run', 'IMG_201907140_930120.jpg'],
    ['an empty name', ''],
    // Issue 42: dates anywhere, but only real ones in a plausible range.
    ['an impossible day anywhere', 'Sprachmemo 2024-13-45.m4a'],
    ['February 30 anywhere', 'Party 2019-02-30.mp4'],
    ['an impossible time after a day', 'WhatsApp Video 2024-04-03 at 25.12.44.mp4'],
    ['a year long ago', 'Schlacht 1066-10-14.mp4'],
    ['a year before 1970', 'Mondlandung 1969-07-20.mp4'],
    ['a year in the future', 'Plan 2031-01-01.mp4'],
    ['a day inside a longer digit run', 'order 12019-07-14.mp4'],
    ['a day followed by more digits', 'scan 2019-07-145.mp4'],
    ['a compact day inside a longer digit run', 'ref 920190714_093012.jpg'],
    ['a compact day without a time', 'invoice 20190714.pdf.mp4'],
    ['a version string', 'app-v2019.07.14.mp4'],
    ['a version after a number', 'release 1.2019.07.14.mp4'],
    ['a version with a fourth part', 'build 2019.07.14.3.mp4'],
    ['a day glued to a word', 'build2019-07-14.mp4'],
    ['two different days', 'Trip 2019-07-01 - 2019-07-14.mp4'],
    ['a real day beside an impossible one', 'Trip 2019-07-01 2019-13-01.mp4'],
    ['mixed separators', 'Notiz 2019-07.14.m4a'],
  ])('ignores %s', (_what, name) => {
    expect(dateFromFileName(name, now)).toBeNull();
  });

  it('takes today but not tomorrow-and-more', () => {
    const today = new Date(2024, 5, 1, 8, 0, 0);
    expect(dateFromFileName('IMG_20240601_080000.jpg', new Date(today.getTime() + 1000))).toBe(today.toISOString());
    expect(dateFromFileName('IMG_20240603_080000.jpg', today)).toBeNull();
  });
});
