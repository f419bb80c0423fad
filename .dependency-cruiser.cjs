/** STYLE.md rule 1: libs/rules is pure — it may import only itself, @noble/hashes and zod (its declarations). */
module.exports = {
  forbidden: [
    {
      name: 'rules-stay-pure',
      comment: 'libs/rules imports nothing but its own files, @noble/hashes and zod: no Nest, no I/O, no Node built-ins, no other lib.',
      severity: 'error',
      from: { path: '^libs/rules/src' },
      to: { pathNot: ['^libs/rules/src', '^node_modules/@noble/hashes/', '^node_modules/zod/'] },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: { path: '^libs/rules/src' },
      to: { couldNotResolve: true },
    },
  ],
  options: {
    exclude: { path: '\\.spec\\.ts$' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
  },
};
