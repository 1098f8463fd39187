import { describe, expect, it } from 'vitest';
import { subtitleTrack } from './subtitle-track.ts';

describe('subtitle tracks', () => {
  it.each([
    ['/films/movie.en.srt', 'movie.en.srt', 'en'],
    ['/films/subs/movie.pt-BR.vtt', 'movie.pt-BR.vtt', 'pt-BR'],
    ['/films/movie.srt', 'movie.srt', undefined],
    ['/films/movie.director.ass', 'movie.director.ass', undefined],
    ['movie.deu.ssa', 'movie.deu.ssa', 'deu'],
  ])('labels %s as %s with language %s', (path, label, language) => {
    expect(subtitleTrack(path)).toEqual({ label, language });
  });
});
