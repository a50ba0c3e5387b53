// Turning what a calendar source returned into busy time (contract §11): the pure engine
// (domain/busy-time.ts) run off the request path. Implemented by src/worker/thread-busy-parser.ts
// (a worker thread, so a large or hostile calendar never stalls the process's requests) and, for
// tests that run the sources' TypeScript directly, by test/support/harness.ts, which calls the
// engine in place (a worker thread runs only the built JavaScript).
import type { HolderOfAccount } from '../../domain/api-key.js';
import type { BusyLimits, BusyParse } from '../../domain/busy-time.js';
import type { Interval } from '../../domain/intervals.js';

export interface BusyParser {
  /**
   * The merged busy time of every text over `window`; never throws (a failure is `{ ok: false }`).
   * Parses waiting for the parser take turns by account, and within one by holder (`FairShare`):
   * one account's or holder's many never delay another's by more than one of them each.
   */
  parse(
    owner: HolderOfAccount,
    texts: readonly string[],
    window: Interval,
    defaultZone: string,
    limits: BusyLimits,
  ): Promise<BusyParse>;
}
