export interface ApiConfig {
  port: number;
  host: string;
  eventStoreUrl?: string;
  /** PostgreSQL schema for the event log and read models (default public). */
  eventStoreSchema?: string;
  dataDir: string;
  bodyLimit: string;
  auditBodyLimit: string;
}

/** Configuration by environment (README "Configuration"); a wrong value stops the boot with a clear message. */
export function readConfig(env: NodeJS.ProcessEnv = process.env): ApiConfig {
  const port = env.PORT === undefined ? 3000 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`PORT must be a port number, got "${env.PORT}"`);
  return {
    port,
    host: env.HOST ?? '127.0.0.1',
    eventStoreUrl: env.EVENT_STORE_URL || undefined,
    eventStoreSchema: env.EVENT_STORE_SCHEMA || undefined,
    dataDir: env.DATA_DIR ?? './data',
    bodyLimit: env.BODY_LIMIT ?? '256kb',
    auditBodyLimit: env.AUDIT_BODY_LIMIT ?? '20mb',
  };
}
