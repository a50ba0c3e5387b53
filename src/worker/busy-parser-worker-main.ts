// The main module of ThreadBusyParser's worker thread (thread-busy-parser.ts starts it by this
// file's name): runs the pure engine on the texts it is sent and posts the result back. Nothing
// here but the engine: the thread shares no state with the process, and a parse that runs away is
// ended by terminating the thread.
import { parentPort } from 'node:worker_threads';
import { busyFromCalendars, type BusyLimits } from '../domain/busy-time.js';
import type { Interval } from '../domain/intervals.js';

export interface ParseRequest {
  id: number;
  texts: string[];
  window: Interval;
  defaultZone: string;
  limits: BusyLimits;
}

parentPort!.on('message', (request: ParseRequest) => {
  const result = busyFromCalendars(request.texts, request.window, request.defaultZone, request.limits);
  parentPort!.postMessage({ id: request.id, result });
});
