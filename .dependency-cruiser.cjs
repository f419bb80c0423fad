/**
 * The import rules of the whole tree (apps, libs, tests, the client), run by `npm run check:deps`.
 * STYLE.md rule 1: libs/rules is pure — it may import only itself, @noble/hashes and zod (its declarations).
 */

/**
 * What another app or lib may import of a lib: its index; of libs/rules a system's own index; of
 * libs/event-store the SQLite engine alone (the projections' worker thread loads no other engine's client).
 */
const ENTRIES = [
  '^(apps|libs)/[^/]+/src/index\\.ts$',
  '^libs/rules/src/(narateer|arcana-beast|archsoul)/index\\.ts$',
  '^libs/event-store/src/sqlite\\.ts$',
];

module.exports = {
  forbidden: [
    {
      name: 'rules-stay-pure',
      comment:
        'libs/rules imports nothing but its own files, @noble/hashes and zod: no Nest, no I/O, no Node built-ins, no other lib.',
      severity: 'error',
      from: { path: '^libs/rules/src', pathNot: '\\.spec\\.ts$' },
      to: { pathNot: ['^libs/rules/src', '^node_modules/@noble/hashes/', '^node_modules/zod/'] },
    },
    {
      name: 'no-unresolvable',
      severity: 'error',
      from: { path: '^libs/rules/src', pathNot: '\\.spec\\.ts$' },
      to: { couldNotResolve: true },
    },
    {
      name: 'no-circular',
      comment:
        'No module reaches itself through runtime imports: a cycle makes load order decide what is undefined. ' +
        'A cycle with a type-only import in it is allowed: `import type` is erased when compiled and loads nothing.',
      severity: 'error',
      from: {},
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'lib-entry-only',
      comment:
        'An app or lib imports another lib (or app) only through its index (`@app/<name>`), never a file inside it. ' +
        'test/ (the end-to-end suites) sits outside every app and lib and reaches into them on purpose.',
      severity: 'error',
      from: { path: '^((apps|libs)/[^/]+/)' },
      to: { path: '^(apps|libs)/[^/]+/', pathNot: ['^$1', ...ENTRIES] },
    },
    {
      name: 'no-relative-across',
      comment:
        'An import that leaves its app or lib goes through the path alias (`@app/<name>`), not a relative path.',
      severity: 'error',
      from: { path: '^((apps|libs)/[^/]+/)' },
      to: { path: '^(apps|libs)/', pathNot: '^$1', dependencyTypesNot: ['aliased'] },
    },
  ],
  options: {
    exclude: { path: '(^|/)(node_modules|dist)/' },
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
  },
};
