import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { removeDir } from './app';

/** Debian's Chromium (CI installs it); Playwright never downloads a browser here. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where the browser suites leave their screenshots. */
export const ARTIFACTS = join(__dirname, '..', '..', 'test-artifacts');

/** `describe` where Chromium is installed; elsewhere `describe.skip`, with a warning naming the skipped file. */
export function describeInBrowserFor(file: string): jest.Describe {
  if (existsSync(CHROMIUM)) return describe;
  console.warn(`SKIPPED ${file}: no Chromium at ${CHROMIUM}; install it with: apt-get install -y chromium`);
  return describe.skip;
}

/** Off the network: only the service on loopback is reachable; nothing of Chromium's own phones home. */
export const OFFLINE_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE localhost, EXCLUDE 127.0.0.1',
];

/** Headless Chromium on a fresh profile, removed again on close. */
export async function launchChromium(viewport?: {
  width: number;
  height: number;
}): Promise<{ context: BrowserContext; close(): Promise<void> }> {
  const profile = mkdtempSync(join(tmpdir(), 'crs-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM,
    headless: true,
    ...(viewport ? { viewport } : {}),
    args: OFFLINE_ARGS,
  });
  return {
    context,
    async close() {
      await context.close();
      removeDir(profile);
    },
  };
}

/** Every request the page makes, and every console error (CSP violations land there). */
export function watch(page: Page) {
  const requests: string[] = [];
  const errors: string[] = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => m.type() === 'error' && errors.push(m.text()));
  page.on('pageerror', (e) => errors.push(e.message));
  return { requests, errors };
}
