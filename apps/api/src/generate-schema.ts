import 'reflect-metadata';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { printSchema } from 'graphql';
import { createApp } from './create-app';
import { asyncApiDocument } from './common/asyncapi';

/** Writes schema/schema.graphql, schema/openapi.json and schema/asyncapi.json; with --check, fails when they are stale. */
async function main() {
  const check = process.argv.includes('--check');
  const { app, openapi } = await createApp({ port: 0, host: '127.0.0.1', eventStoreUrl: 'memory:', dataDir: '', bodyLimit: '1kb', auditBodyLimit: '1kb' }, { logger: false });
  await app.init();
  const files = {
    'schema.graphql': printSchema(app.get(GraphQLSchemaHost).schema) + '\n',
    'openapi.json': JSON.stringify(openapi, null, 2) + '\n',
    'asyncapi.json': JSON.stringify(asyncApiDocument(), null, 2) + '\n',
  };
  await app.close();
  const stale: string[] = [];
  for (const [name, content] of Object.entries(files)) {
    const path = join(process.cwd(), 'schema', name);
    if (check) {
      let current = '';
      try {
        current = readFileSync(path, 'utf8');
      } catch {
        /* missing counts as stale */
      }
      if (current !== content) stale.push(`schema/${name}`);
    } else writeFileSync(path, content);
  }
  if (stale.length > 0) {
    console.error(`Stale generated files: ${stale.join(', ')}. Run \`npm run schema\` and commit them.`);
    process.exit(1);
  }
  console.log(check ? 'schema/ is up to date' : 'schema/ written');
}

void main();
