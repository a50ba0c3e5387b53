import { expect, it } from 'vitest';
import { IdGenerator } from '../../src/app/ids.js';

it('when many ids are made, then each is the prefix and 20 base-36 characters, none repeats, and every character occurs', () => {
  // Well past one refill of the random pool (a few hundred ids per refill).
  const generator = new IdGenerator();
  const ids = Array.from({ length: 5_000 }, () => generator.newId('bkg'));
  for (const id of ids) expect(id).toMatch(/^bkg_[0-9a-z]{20}$/);
  expect(new Set(ids).size).toBe(ids.length);
  const characters = new Set(ids.flatMap((id) => [...id.slice(4)]));
  expect(characters.size).toBe(36);
});
