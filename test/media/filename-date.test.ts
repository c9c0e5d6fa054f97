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
    ['a date inside a title', 'Best of 20190714_093012.mp4'],
    ['a date in a title with dashes', 'Party 2019-07-14.mp4'],
    ['a longer digit run', 'IMG_201907140_930120.jpg'],
    ['digits as a prefix', '1234_20190714_093012.jpg'],
    ['an empty name', ''],
  ])('ignores %s', (_what, name) => {
    expect(dateFromFileName(name, now)).toBeNull();
  });

  it('takes today but not tomorrow-and-more', () => {
    const today = new Date(2024, 5, 1, 8, 0, 0);
    expect(dateFromFileName('IMG_20240601_080000.jpg', new Date(today.getTime() + 1000))).toBe(today.toISOString());
    expect(dateFromFileName('IMG_20240603_080000.jpg', today)).toBeNull();
  });
});
