// Whether the database's schema is current: what readiness reports.
export interface SchemaStatus {
  /** Migrations not yet applied (empty when the schema is current). */
  pendingMigrations(): Promise<string[]>;
}
