// Lets a worker thread started from Jest load the lab's TypeScript sources: @swc/core
// transpiles .ts on require, and the @app/* aliases resolve like tsconfig.json paths.
const Module = require('node:module');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');
const { transformSync } = require('@swc/core');

const root = join(__dirname, '../../../..');
const aliases = { '@app/rules': 'libs/rules/src', '@app/lab': 'libs/lab/src' };
const resolve = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  for (const [alias, dir] of Object.entries(aliases)) {
    if (request === alias || request.startsWith(`${alias}/`))
      request = join(root, dir, request.slice(alias.length));
  }
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
