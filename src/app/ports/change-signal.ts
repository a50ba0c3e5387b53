// Tells a process what was committed to the database since it read something, without a query
// where it can: what lets the key cache (and, through the key's calendar version, the calendar
// cache) reuse what it read.
export interface ChangeSignal {
  /**
   * A mark of every commit this process knows of so far, to take before a read; null when it
   * cannot know of other processes' commits without a query (PostgreSQL with no recent answer
   * from its change poll): then nothing read may be reused.
   */
  mark(): number | null;
  /**
   * Whether nothing that concerns the holder (its keys, its calendar) was committed, by this
   * process or any other, since `mark` was taken; false whenever that cannot be known.
   */
  unchangedSince(mark: number, holderId: string): boolean;
}
