import 'reflect-metadata';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GraphQLSchemaHost } from '@nestjs/graphql';
import { printSchema } from 'graphql';
import { createApp } from './create-app';
import { asyncApiDocument } from './common/asyncapi';

/** The typed client's types, by openapi-typescript from the OpenAPI document (a field with a default stays optional to send). */
function clientTypes(openapi: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'crs-openapi-'));
  try {
    writeFileSync(join(dir, 'openapi.json'), openapi);
    return execFileSync(
      process.execPath,
      [
        join(process.cwd(), 'node_modules/openapi-typescript/bin/cli.js'),
        join(dir, 'openapi.json'),
        '--default-non-nullable=false',
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Writes schema/schema.graphql, schema/openapi.json, schema/asyncapi.json and the typed client's
 * clients/typescript/src/openapi.d.ts; with --check, fails when any is stale.
 */
async function main() {
  const check = process.argv.includes('--check');
  const { app, openapi } = await createApp(
    {
      port: 0,
      host: '127.0.0.1',
      eventStoreUrl: 'memory:',
      dataDir: '',
      bodyLimit: '1kb',
      auditBodyLimit: '1kb',
    },
    { logger: false },
  );
  await app.init();
  const files = {
    'schema.graphql': printSchema(app.get(GraphQLSchemaHost).schema) + '\n',
    'openapi.json': JSON.stringify(openapi, null, 2) + '\n',
    'asyncapi.json': JSON.stringify(asyncApiDocument(), null, 2) + '\n',
  };
  await app.close();
  const generated: Record<string, string> = {
    ...Object.fromEntries(Object.entries(files).map(([name, content]) => [`schema/${name}`, content])),
    'clients/typescript/src/openapi.d.ts': clientTypes(files['openapi.json']),
  };
  const stale: string[] = [];
  for (const [name, content] of Object.entries(generated)) {
    const path = join(process.cwd(), name);
    if (check) {
      let current = '';
      try {
        current = readFileSync(path, 'utf8');
      } catch {
        /* missing counts as stale */
      }
      if (current !== content) stale.push(name);
    } else writeFileSync(path, content);
  }
  if (stale.length > 0) {
    console.error(`Stale generated files: ${stale.join(', ')}. Run \`npm run schema\` and commit them.`);
    process.exit(1);
  }
  console.log(check ? 'schema/ and the client types are up to date' : 'schema/ and the client types written');
}

void main();
