/** The little SQL both engines share: `$n` placeholders, a transaction, and the dialect's one difference. */
export interface SqlExec {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Returns the number of rows changed. */
  run(sql: string, params?: unknown[]): Promise<number>;
}

export interface SqlDriver extends SqlExec {
  readonly engine: 'sqlite' | 'memory' | 'postgres';
  /** The SQLite file (another connection to it may be opened elsewhere, as the outbox's worker does); none elsewhere. */
  readonly file?: string;
  /** Appended to the claim query: `FOR UPDATE OF d SKIP LOCKED` on PostgreSQL, nothing on the single-writer SQLite. */
  readonly lockClause: string;
  tx<T>(fn: (q: SqlExec) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}
