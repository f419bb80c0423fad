import 'reflect-metadata';
import type { Server } from 'node:http';
import { INestApplication, Logger } from '@nestjs/common';
import { createApp } from './create-app';
import { readConfig } from './config';
import { LiveConnections } from './ops/live-connections';
import { PinoLogger } from 'nestjs-pino';
import { consoleToLog } from './ops/logging';

/** How long open streams, then in-flight requests, get to finish at shutdown before they are cut. */
const GRACE_MS = 1000;
/** Past this the process exits anyway (code 1), well inside Docker's and Kubernetes' 10 s / 30 s before SIGKILL. */
const DEADLINE_MS = 8000;
const SIGNALS: NodeJS.Signals[] = ['SIGTERM', 'SIGINT', 'SIGHUP'];

async function bootstrap() {
  const config = readConfig();
  const { app } = await createApp(config);
  consoleToLog(PinoLogger.root);
  await app.listen(config.port, config.host);
  for (const signal of SIGNALS) process.once(signal, () => void shutdown(app, signal));
  const where = config.eventStoreUrl
    ? config.eventStoreUrl.replace(/\/\/[^@/]*@/, '//***@')
    : `SQLite file in ${config.dataDir}`;
  const url = (await app.getUrl()).replace('[::1]', 'localhost').replace('127.0.0.1', 'localhost');
  console.log(
    `Combat rules service listening on ${url} (event store: ${where}; API docs at /docs, GraphQL at /graphql)`,
  );
}

/**
 * A signal ends the process in order, each step logged with its duration: open SSE streams get
 * `event: shutdown` and their end, graphql-ws sockets a close frame 1001 (both kinds of client
 * reconnect by themselves, to this instance once it is back or to another); then Nest closes
 * (projections, webhooks, the HTTP server, the stores), in-flight requests being cut after
 * GRACE_MS; then exit 0. `server.close()` alone would wait for every open stream.
 */
async function shutdown(app: INestApplication, signal: NodeJS.Signals): Promise<void> {
  const logger = new Logger('Shutdown');
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const deadline = setTimeout(() => {
    logger.error({ msg: 'shutdown did not finish in time; exiting', signal, durationMs: elapsed() });
    process.exit(1);
  }, DEADLINE_MS);
  deadline.unref();
  try {
    const live = app.get(LiveConnections);
    logger.log({ msg: 'shutdown started', signal, open: live.open });
    const closed = await live.closeAll(GRACE_MS);
    logger.log({ msg: 'shutdown: live streams closed', signal, ...closed });
    const server = app.getHttpServer() as Server;
    const cut = setTimeout(() => server.closeAllConnections(), GRACE_MS);
    cut.unref();
    await app.close();
    clearTimeout(cut);
    logger.log({ msg: 'shutdown done', signal, durationMs: elapsed() });
    process.exit(0);
  } catch (e) {
    logger.error({
      msg: 'shutdown failed',
      signal,
      durationMs: elapsed(),
      err: e instanceof Error ? e.message : String(e),
    });
    process.exit(1);
  }
}

bootstrap().catch((e: unknown) => {
  // Plain, on stderr, whether or not the console already writes to the JSON log: the one line a person starting it reads.
  process.stderr.write(`Startup failed: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
