// Lets a worker thread started from Jest load the TypeScript sources (the lab's, the audit's
// verifier): @swc/core transpiles .ts on require, and @app/<lib> resolves to libs/<lib>/src like
// tsconfig.json's paths.
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { transformSync } = require('@swc/core');

const root = join(__dirname, '../..');
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const alias = /^@app\/([a-z-]+)(\/.*)?$/.exec(request);
  if (alias) request = join(root, 'libs', alias[1], 'src', alias[2] ?? '');
  return resolve.call(this, request, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const { code } = transformSync(readFileSync(filename, 'utf8'), {
    filename,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(code, filename);
};
