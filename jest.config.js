/** @type {import('jest').Config} */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    keepClassNames: true,
    target: 'es2022',
  },
  module: { type: 'commonjs' },
};
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/apps', '<rootDir>/libs', '<rootDir>/test'],
  testRegex: '.*\\.(unit|int|e2e)\\.spec\\.ts$',
  transform: {
    '^.+\\.ts$': ['@swc/jest', swc],
    '^.+\\.js$': ['@swc/jest', { ...swc, jsc: { ...swc.jsc, parser: { syntax: 'ecmascript' } } }],
  },
  // @fastify/static (Swagger UI's files) brings content-disposition 3, which is ESM only.
  transformIgnorePatterns: ['/node_modules/(?!(@nestjs|@noble|@fastify/static|content-disposition|uuid)/)'],
  moduleNameMapper: {
    '^@app/api$': '<rootDir>/apps/api/src/index.ts',
    '^@app/rules$': '<rootDir>/libs/rules/src/index.ts',
    '^@app/rules/(.*)$': '<rootDir>/libs/rules/src/$1',
    '^@app/event-store$': '<rootDir>/libs/event-store/src/index.ts',
    '^@app/event-store/(.*)$': '<rootDir>/libs/event-store/src/$1',
    '^@app/fight-log$': '<rootDir>/libs/fight-log/src/index.ts',
    '^@app/fight-log/(.*)$': '<rootDir>/libs/fight-log/src/$1',
    '^@app/fights$': '<rootDir>/libs/fights/src/index.ts',
    '^@app/fights/(.*)$': '<rootDir>/libs/fights/src/$1',
    '^@app/audit$': '<rootDir>/libs/audit/src/index.ts',
    '^@app/audit/(.*)$': '<rootDir>/libs/audit/src/$1',
    '^@app/lab$': '<rootDir>/libs/lab/src/index.ts',
    '^@app/lab/(.*)$': '<rootDir>/libs/lab/src/$1',
    '^@app/webhooks$': '<rootDir>/libs/webhooks/src/index.ts',
    '^@app/webhooks/(.*)$': '<rootDir>/libs/webhooks/src/$1',
  },
  // A bound on a hang, not a speed check: two full runs side by side on two cores take a start of the
  // service or a Lab matrix past 30 s. Tests wait for conditions, never for time.
  testTimeout: 120000,
  // With one worker to spare (two cores) Jest runs every file in its own process ("in band"), where what
  // hundreds of files leave behind adds up past the heap limit. A memory limit makes it use a worker
  // instead (still one file at a time), replaced whenever a file leaves it holding more than this.
  workerIdleMemoryLimit: '1GB',
};
