/**
 * The API app for the stack benchmark's service process, through its entry (`@app/api`). A module of its
 * own so that server-process.ts can load it lazily: nest build rewrites the alias of this export, not of a
 * require() call.
 */
export { createApp, readConfig } from '@app/api';
export { FightService, ProjectionRunner } from '@app/fights';
