/** The API application's entry for the other apps (the CLI's bench serves it in-process). */
export { AppModule } from './app.module';
export { createApp } from './create-app';
export { toApiError } from './common/to-api-error';
export { readConfig, readSideUrl } from './config';
export type { ApiConfig } from './config';
