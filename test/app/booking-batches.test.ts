// BookingBatches: requests of one key that arrive while one of its batches is being decided are
// decided together next, in the order they came; a lone request is decided at once.
import { describe, expect, it } from 'vitest';
import { BookingBatches, type Settled } from '../../src/app/booking-batches.js';

/** A decision whose batches the test ends by hand, recording what each batch was given. */
function gated() {
  const batches: string[][] = [];
  const ends: Array<(settled: Array<Settled<string>>) => void> = [];
  const decide = (inputs: string[]) =>
    new Promise<Array<Settled<string>>>((resolve) => {
      batches.push(inputs);
      ends.push(resolve);
    });
  const endAll = (index: number) =>
    ends[index]!(batches[index]!.map((input) => ({ ok: true, value: `booked ${input}` })));
  return { batches, decide, endAll, ends };
}

describe('booking batches', () => {
  it('when a request finds none of its key being decided, then it is decided at once and alone', async () => {
    const batches = new BookingBatches(64);
    const { batches: given, decide, endAll } = gated();
    const answer = batches.decide('ada 10:00', 'grace', decide);
    expect(given).toEqual([['grace']]);
    endAll(0);
    expect(await answer).toBe('booked grace');
  });

  it('when requests arrive while a batch of their key is decided, then they are decided together next, in order, at most the bound at once', async () => {
    const batches = new BookingBatches(2);
    const { batches: given, decide, endAll } = gated();
    const answers = ['a', 'b', 'c', 'd'].map((guest) => batches.decide('ada 10:00', guest, decide));
    expect(given).toEqual([['a']]);
    endAll(0);
    await answers[0];
    expect(given).toEqual([['a'], ['b', 'c']]);
    endAll(1);
    await answers[2];
    expect(given).toEqual([['a'], ['b', 'c'], ['d']]);
    endAll(2);
    expect(await Promise.all(answers)).toEqual(['booked a', 'booked b', 'booked c', 'booked d']);
  });

  it('when another key is being decided, then a request does not wait for it', () => {
    const batches = new BookingBatches(64);
    const { batches: given, decide } = gated();
    void batches.decide('ada 10:00', 'a', decide);
    void batches.decide('ada 11:00', 'b', decide);
    void batches.decide('bob 10:00', 'c', decide);
    expect(given).toEqual([['a'], ['b'], ['c']]);
  });

  it('when a batch settles each request its own way, then each gets its own answer', async () => {
    const batches = new BookingBatches(64);
    const { batches: given, decide, ends, endAll } = gated();
    const first = batches.decide('ada 10:00', 'a', decide);
    const refused = batches.decide('ada 10:00', 'b', decide);
    const booked = batches.decide('ada 10:00', 'c', decide);
    endAll(0);
    await first;
    expect(given[1]).toEqual(['b', 'c']);
    ends[1]!([
      { ok: false, error: new Error('no seat left') },
      { ok: true, value: 'booked c' },
    ]);
    await expect(refused).rejects.toThrow('no seat left');
    expect(await booked).toBe('booked c');
  });

  it('when a decision throws, then every request of its batch gets the error, and the key is decided afresh after', async () => {
    const batches = new BookingBatches(64);
    const failing = () => Promise.reject(new Error('database unavailable'));
    const answers = [batches.decide('ada 10:00', 'a', failing), batches.decide('ada 10:00', 'b', failing)];
    for (const answer of answers) await expect(answer).rejects.toThrow('database unavailable');
    const { batches: given, decide, endAll } = gated();
    const later = batches.decide('ada 10:00', 'c', decide);
    expect(given).toEqual([['c']]);
    endAll(0);
    expect(await later).toBe('booked c');
  });
});
