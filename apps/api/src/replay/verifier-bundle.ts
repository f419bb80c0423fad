import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** What `npm run build` writes beside this module (scripts/build-replay.js). */
const BUILT = join(__dirname, 'verifier.bundle.js');
const BUILDER = 'scripts/build-replay.js';

let script: Promise<string> | undefined;

/**
 * The replay page's verifier for the browser (libs/audit + libs/rules, bundled). Run from the sources with
 * the dev dependencies (tests, development), it is bundled afresh at the first request, so it is never
 * staler than the verifier the service runs; a production install (no esbuild, no sources) serves what
 * `npm run build` wrote. Either way once per process.
 */
export function replayVerifierScript(): Promise<string> {
  script ??= load().catch((e: unknown) => {
    script = undefined;
    throw e;
  });
  return script;
}

async function load(): Promise<string> {
  const builder = findUp(__dirname, BUILDER);
  if (builder && canResolve('esbuild')) {
    // A CommonJS build script outside the compiled tree, found at run time: require, not import.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const builderModule = require(builder) as { bundleReplayVerifier: () => Promise<string> };
    return safeInline(await builderModule.bundleReplayVerifier());
  }
  if (existsSync(BUILT)) return safeInline(readFileSync(BUILT, 'utf8'));
  throw new Error(`the replay verifier bundle is missing: run npm run build (it writes ${BUILT})`);
}

/** Inside an inline <script>, nothing may close it (esbuild escapes these already; this makes sure). */
function safeInline(code: string): string {
  if (/<\/script|<!--/i.test(code))
    throw new Error('the replay verifier bundle holds </script or <!--: it cannot be inlined');
  return code;
}

function findUp(from: string, relative: string): string | undefined {
  for (let dir = from; ; dir = dirname(dir)) {
    const candidate = join(dir, relative);
    if (existsSync(candidate) && existsSync(join(dir, 'libs/audit/src'))) return candidate;
    if (dirname(dir) === dir) return undefined;
  }
}

function canResolve(name: string): boolean {
  try {
    require.resolve(name);
    return true;
  } catch {
    return false;
  }
}
