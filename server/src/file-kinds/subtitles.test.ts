import { describe, expect, it } from 'vitest';
import { offersSubtitles } from './subtitles.ts';

describe('offersSubtitles', () => {
  it('knows subtitle files by their extension in any case', () => {
    for (const name of ['film.srt', 'Film.SRT', 'a.b.Vtt', 'x.ass', 'x.SSA', '.vtt'])
      expect(offersSubtitles(name, false)).toBe(true);
    for (const name of ['film.srt.txt', 'srt', 'film.srtx', 'film.sr', 'film', '', 'vtt.jpg'])
      expect(offersSubtitles(name, false)).toBe(false);
  });

  it('knows subtitle folders by name in any case, and only folders', () => {
    for (const name of ['sub', 'Subs', 'SUBTITLES']) expect(offersSubtitles(name, true)).toBe(true);
    expect(offersSubtitles('subs', false)).toBe(false);
    expect(offersSubtitles('film.srt', true)).toBe(false);
    expect(offersSubtitles('subtitles2', true)).toBe(false);
  });
});
