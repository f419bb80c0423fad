import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import { AppError } from '@app/fights';

/** What `npm run build` writes beside this module (scripts/build-replay.js). */
const BUILT = join(__dirname, 'verifier.bundle.js');
const BUILDER = 'scripts/build-replay.js';

/** The replay page's verifier script, with what serving it as a cacheable asset needs. */
export interface VerifierScript {
  code: string;
  /** 20 hex digits of the script's SHA-256: in its URL, so another build is another URL. */
  hash: string;
  /** Its path under /replay: `verifier.<hash>.js`. */
  file: string;
  /** Subresource Integrity (sha384) for the page's `<script integrity>`. */
  integrity: string;
  /** The script compressed (node:zlib), made once on first use. */
  encoded(encoding: 'br' | 'gzip'): Promise<Buffer>;
}

/** The answer when the verifier was never built: the replay page cannot work, and the operator can fix it. */
export class ReplayUnavailable extends AppError {
  constructor() {
    super(
      503,
      'REPLAY_UNAVAILABLE',
      "the replay page's verifier is not installed on this server: build it with npm run build (scripts/build-replay.js writes dist/apps/api/src/replay/verifier.bundle.js)",
    );
    this.name = 'ReplayUnavailable';
  }
}

let script: Promise<VerifierScript> | undefined;

/**
 * The replay page's verifier for the browser (libs/audit + libs/rules, bundled). Run from the sources with
 * the dev dependencies (tests, development), it is bundled afresh at the first request, so it is never
 * staler than the verifier the service runs; a production install (no esbuild, no sources) serves what
 * `npm run build` wrote, or, when that is missing, rejects with ReplayUnavailable (503). Once per process;
 * a failure is tried again at the next request.
 */
export function replayVerifierScript(): Promise<VerifierScript> {
  script ??= loadVerifierScript({ built: BUILT, builder: findUp(__dirname, BUILDER) }).catch((e: unknown) => {
    script = undefined;
    throw e;
  });
  return script;
}

/** Where the script comes from: a build script to bundle the sources with (when esbuild is installed), or the built file. */
export interface VerifierSource {
  built: string;
  builder?: string;
}

export async function loadVerifierScript(source: VerifierSource): Promise<VerifierScript> {
  if (source.builder && canResolve('esbuild')) {
    // A CommonJS build script outside the compiled tree, found at run time: require, not import.
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const builderModule = require(source.builder) as { bundleReplayVerifier: () => Promise<string> };
    return verifierScript(await builderModule.bundleReplayVerifier());
  }
  if (existsSync(source.built)) return verifierScript(readFileSync(source.built, 'utf8'));
  throw new ReplayUnavailable();
}

export function verifierScript(code: string): VerifierScript {
  // The page saved for offline use holds it in an inline <script>: nothing may close that (esbuild escapes these already; this makes sure).
  if (/<\/script|<!--/i.test(code))
    throw new Error('the replay verifier bundle holds </script or <!--: it cannot be inlined');
  const hash = createHash('sha256').update(code).digest('hex').slice(0, 20);
  const bytes = Buffer.from(code, 'utf8');
  const made: Partial<Record<'br' | 'gzip', Promise<Buffer>>> = {};
  return {
    code,
    hash,
    file: `verifier.${hash}.js`,
    integrity: `sha384-${createHash('sha384').update(bytes).digest('base64')}`,
    encoded(encoding) {
      // In libuv's thread pool, not on the event loop; brotli 9 is ~20 % smaller than gzip at a fraction of 11's time.
      return (made[encoding] ??=
        encoding === 'br'
          ? promisify(brotliCompress)(bytes, {
              params: {
                [constants.BROTLI_PARAM_QUALITY]: 9,
                [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length,
              },
            })
          : promisify(gzip)(bytes, { level: 9 }));
    },
  };
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
