// The replay page's verifier for the browser: libs/audit's verifier and libs/rules (pure) bundled from their
// TypeScript sources into one script, node:crypto swapped for @noble/hashes (apps/api/src/replay/browser-crypto.ts).
// `npm run build` writes it next to the compiled replay module; a service run from source bundles it at its
// first replay request (apps/api/src/replay/verifier-bundle.ts). Any other Node built-in fails the build.
const { mkdirSync, writeFileSync } = require('node:fs');
const { dirname, join } = require('node:path');

const ROOT = join(__dirname, '..');
const ENTRY = join(ROOT, 'apps/api/src/replay/verifier.browser.ts');
const CRYPTO = join(ROOT, 'apps/api/src/replay/browser-crypto.ts');
const OUT = join(ROOT, 'dist/apps/api/src/replay/verifier.bundle.js');

/** The bundle's text (an IIFE that sets `ReplayVerifier`). */
async function bundleReplayVerifier() {
  const esbuild = require('esbuild');
  const result = await esbuild.build({
    entryPoints: [ENTRY],
    bundle: true,
    write: false,
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    minify: true,
    legalComments: 'none',
    tsconfig: join(ROOT, 'tsconfig.json'),
    logLevel: 'silent',
    plugins: [
      {
        name: 'browser-crypto',
        setup(build) {
          build.onResolve({ filter: /^(node:)?crypto$/ }, () => ({ path: CRYPTO }));
        },
      },
    ],
  });
  return result.outputFiles[0].text;
}

module.exports = { bundleReplayVerifier, OUT };

if (require.main === module) {
  bundleReplayVerifier().then(
    (text) => {
      mkdirSync(dirname(OUT), { recursive: true });
      writeFileSync(OUT, text);
      console.log(
        `replay verifier: ${require('node:path').relative(process.cwd(), OUT)} (${Math.round(text.length / 1024)} KiB)`,
      );
    },
    (e) => {
      console.error(e.message);
      process.exit(1);
    },
  );
}
