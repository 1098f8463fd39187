import { describe, expect, it } from 'vitest';
import { isUsableSlug, slugOf } from './slug.ts';

describe('slugOf', () => {
  it.each([
    ['Hello World', 'hello-world'],
    ['  Crème brûlée, à la carte!  ', 'creme-brulee-a-la-carte'],
    ['C++ & Rust: 2026', 'c-rust-2026'],
    ['Привет мир', 'привет-мир'],
    ['---', ''],
  ])('%j → %j', (title, slug) => {
    expect(slugOf(title)).toBe(slug);
  });
});

describe('isUsableSlug', () => {
  it.each([
    ['hello-world', true],
    ['', false],
    ['a/b', false],
    ['..', false],
    ['.hidden', false],
    ['with space', false],
  ])('%j → %s', (slug, usable) => {
    expect(isUsableSlug(slug)).toBe(usable);
  });
});
