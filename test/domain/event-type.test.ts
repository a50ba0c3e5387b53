// Contract §4: an event type's slug is `[a-z0-9-]`, derived from the title when omitted, with a
// numeric suffix when taken.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { firstFreeSlug, MAX_SLUG_LENGTH, slugify } from '../../src/domain/event-type.js';

describe('slugify', () => {
  it.each([
    ['Intro call', 'intro-call'],
    ['Weekly 1:1 — Café', 'weekly-1-1-cafe'],
    ['  --Hello,   World!--  ', 'hello-world'],
    ['Ünïcödé Ñandú', 'unicode-nandu'],
    ['30 min', '30-min'],
    ['ALL CAPS', 'all-caps'],
  ])('when the title is %j, then the slug is %j', (title, slug) => {
    expect(slugify(title)).toBe(slug);
  });

  it.each(['', '   ', '!!!', '日本語', '🙂'])(
    'when the title %j has nothing usable, then the slug is "event"',
    (title) => {
      expect(slugify(title)).toBe('event');
    },
  );

  it('when the title is very long, then the slug leaves room for a numeric suffix and does not end with a hyphen', () => {
    const slug = slugify(`${'a'.repeat(73)} bcd`);
    expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH - 6);
    expect(slug).toBe('a'.repeat(73));
    expect(`${slug}-99999`.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH);
  });

  it('when any title is slugified, then the slug is non-empty lower-case words joined by single hyphens', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 120 }), (title) => {
        const slug = slugify(title);
        expect(slug).toMatch(/^[a-z0-9]+(?:-[a-z0-9]+)*$/);
        expect(slug.length).toBeLessThanOrEqual(MAX_SLUG_LENGTH - 6);
      }),
      { numRuns: 300 },
    );
  });
});

describe('firstFreeSlug', () => {
  it('when the base is free, then it is used as is', () => {
    expect(firstFreeSlug('intro', new Set())).toBe('intro');
    expect(firstFreeSlug('intro', new Set(['intro-2', 'other']))).toBe('intro');
  });

  it('when the base is taken, then the first free numeric suffix from 2 is used', () => {
    expect(firstFreeSlug('intro', new Set(['intro']))).toBe('intro-2');
    expect(firstFreeSlug('intro', new Set(['intro', 'intro-2', 'intro-3']))).toBe('intro-4');
    expect(firstFreeSlug('intro', new Set(['intro', 'intro-3']))).toBe('intro-2');
  });
});
