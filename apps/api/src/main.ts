import 'reflect-metadata';
import { createApp } from './create-app';
import { readConfig } from './config';

async function bootstrap() {
  const config = readConfig();
  const { app } = await createApp(config);
  await app.listen(config.port, config.host);
  const where = config.eventStoreUrl ? config.eventStoreUrl.replace(/\/\/[^@/]*@/, '//***@') : `SQLite file in ${config.dataDir}`;
  const url = (await app.getUrl()).replace('[::1]', 'localhost').replace('127.0.0.1', 'localhost');
  console.log(`Combat rules service listening on ${url} (event store: ${where}; API docs at /docs, GraphQL at /graphql)`);
}

bootstrap().catch((e: unknown) => {
  console.error(`Startup failed: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
