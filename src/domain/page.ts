/** Keyset position after which a page continues: the sort key of the last item and its id. */
export interface PageAfter {
  key: number;
  id: string;
}

/** A page of a list: at most `limit` items after `after` (from the start when null). */
export interface PageRequest {
  limit: number;
  after: PageAfter | null;
}
