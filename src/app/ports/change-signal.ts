// Tells a process whether anything was committed to the database since it last looked, without
// a query where the engine allows it: what lets the key cache reuse a key it read.
export interface ChangeSignal {
  /**
   * A value that is the same on two calls only if nothing was committed to the database in
   * between, by this process or any other; null when the engine cannot tell without a query
   * (PostgreSQL): then nothing read may be reused.
   */
  databaseVersion(): string | null;
}
