import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { get as httpGet, type IncomingHttpHeaders } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import type { Page } from 'playwright-core';
import { removeDir, startApp, TestApp } from './support/app';
import { ARTIFACTS, describeInBrowserFor, launchChromium, watch } from './support/chromium';
import { pack, packRound } from './support/arcana-beast-sheets';
import { skirmish, skirmishExchanges, skirmishOpening } from './support/archsoul-sheets';
import { duel, duelRound, mira, orinUnranged } from './support/narateer-sheets';

/**
 * The replay page (docs/replay.md) in Debian's Chromium: a person steps through a whole fight and sees every
 * die verified in the browser, by the verifier POST /audit/verify runs (bundled for the page), for fights
 * read from the service and for exported log files opened with no server state at all.
 */
const describeInBrowser = describeInBrowserFor('test/replay.e2e.spec.ts');

type Command = Record<string, unknown> & { type: string };

// The fights of test/regression-fixtures.e2e.spec.ts, played here through the API with today's rules.
const skirmishRound: Command[] = [...skirmishOpening, ...skirmishExchanges];

const launch = () => launchChromium({ width: 1280, height: 720 });

interface Log {
  entries: { seq: number; type: string; data: Record<string, any>; hash: string }[];
  [key: string]: unknown;
}

describeInBrowser('replay page in headless Chromium', () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  let seen: ReturnType<typeof watch>;

  /** Plays a fight as the regression fixtures are recorded: a refused command is left out, a decision the dice made is cancelled by the GM. */
  const play = async (fight: object, commands: Command[]): Promise<string> => {
    const fightId = (await t.http.post('/fights').send(fight).expect(201)).body.fightId as string;
    for (const command of commands) {
      let res = await t.http.post(`/fights/${fightId}/commands`).send(command);
      if (res.body?.code === 'PENDING_DECISION') {
        await t.http.post(`/fights/${fightId}/commands`).send({ type: 'CancelPending' }).expect(200);
        res = await t.http.post(`/fights/${fightId}/commands`).send(command);
      }
      expect(res.status).toBeLessThan(500);
    }
    return fightId;
  };
  const end = (fightId: string) =>
    t.http.post(`/fights/${fightId}/commands`).send({ type: 'EndFight' }).expect(200);
  const exportLog = async (fightId: string): Promise<Log> =>
    (await t.http.get(`/fights/${fightId}/log`).expect(200)).body;
  const spectator = async (fightId: string) =>
    (
      (await t.http.post(`/fights/${fightId}/tokens`).send({ role: 'spectator' }).expect(201)).body as {
        token: string;
      }
    ).token;
  const replayUrl = async (fightId: string, hash = '') =>
    `${t.url}/replay/${fightId}?token=${encodeURIComponent(await spectator(fightId))}${hash}`;
  const serverVerdict = async (text: string) =>
    (await t.http.post('/audit/verify').set('content-type', 'application/json').send(text).expect(200)).body;

  /** Opens a log on the file page the way a person does: the file picker, nothing sent anywhere. */
  const openFile = async (name: string, text: string) => {
    await page.goto(`${t.url}/replay`);
    await page
      .locator('#file')
      .setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.locator('body[data-loaded]').waitFor({ state: 'attached' });
  };
  const pageReport = async () => JSON.parse((await page.locator('#report-json').textContent()) ?? 'null');
  const selectedIs = (seq: number) => page.locator(`body[data-seq="${seq}"]`).waitFor({ state: 'attached' });

  /** Home, then → to the last event: each step shows that event, the fight folded to it, and every die of it verified. */
  async function stepThrough(log: Log, rollStatus: 'verified' | 'manual' | 'committed') {
    await page.locator('#timeline').focus();
    await page.keyboard.press('Home');
    let rolls = 0;
    for (const e of log.entries) {
      if (e.seq > 1) await page.keyboard.press('ArrowRight');
      await selectedIs(e.seq);
      expect(await page.locator('#detail h2').textContent()).toBe(`seq ${e.seq} · ${e.type}`);
      expect(await page.locator('#state').getAttribute('data-view-seq')).toBe(String(e.seq));
      expect(await page.locator('#scrub').inputValue()).toBe(String(e.seq));
      expect(page.url()).toMatch(new RegExp(`#seq=${e.seq}$`));
      const found = await page.locator('#detail .roll').count();
      expect(await page.locator(`#detail .roll[data-status="${rollStatus}"]`).count()).toBe(found);
      rolls += found;
      // The faces on screen are the event's own.
      if (found > 0)
        expect(
          (await page.locator('#detail .roll .dice.recorded').first().locator('.die').allTextContents())
            .length,
        ).toBeGreaterThan(0);
    }
    expect(await page.locator('#next').isDisabled()).toBe(true);
    return rolls;
  }

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [t, browser] = await Promise.all([startApp({ listen: true }), launch()]);
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (t) removeDir(t.dataDir);
  });
  beforeEach(async () => {
    page = await browser.context.newPage();
    page.setDefaultTimeout(15_000);
    seen = watch(page);
  });
  afterEach(async () => {
    await page.close();
    // Self-contained: nothing but the service itself was asked for, and the CSP refused nothing of the page's own.
    const origin = new URL(t.url!).origin;
    expect(seen.requests.filter((u) => !u.startsWith(origin) && !u.startsWith('file://'))).toEqual([]);
    // …and the page threw nothing (an error page's own status is not an error of the page).
    expect(
      seen.errors.filter(
        (e) => !/^Failed to load resource: the server responded with a status of (400|401|404)/.test(e),
      ),
    ).toEqual([]);
  });

  describe.each([
    [
      'Narateer',
      () => duel({ mode: 'seeded', seed: 'replay-narateer', drawKey: 'replay-narateer' }),
      duelRound,
      'ExchangeResolved',
    ],
    [
      'Arcana Beast',
      () => pack({ mode: 'seeded', seed: 'replay-arcana', drawKey: 'replay-arcana' }),
      packRound,
      'AttackResolved',
    ],
    [
      'Archsoul',
      () => skirmish({ mode: 'seeded', seed: 'replay-archsoul', drawKey: 'replay-archsoul' }),
      skirmishRound,
      'ExchangeResolved',
    ],
  ])('a finished %s fight', (system, fight, commands, exchange) => {
    let fightId = '';
    let log: Log;

    beforeAll(async () => {
      fightId = await play(fight(), commands);
      await end(fightId);
      log = await exportLog(fightId);
      expect(log.entries.some((e) => e.type === exchange)).toBe(true);
    });

    it('from the service: steps end to end, every die recomputed from the revealed seed (RULINGS C5) and verified', async () => {
      const res = await page.goto(await replayUrl(fightId));
      expect(res!.status()).toBe(200);
      expect(res!.headers()['content-security-policy']).toMatch(/default-src 'none'/);
      await page.locator('body[data-loaded="true"]').waitFor({ state: 'attached' });
      expect(await page.locator('#verdict').getAttribute('data-verdict')).toBe('verified');
      expect(await page.locator('#verdict .v').textContent()).toBe('VERIFIED — the whole fight');
      expect(await page.locator('#verdict .seed').textContent()).toMatch(
        /^Seed revealed at seq \d+; it hashes to the commitment/,
      );
      expect(await page.locator('.ev').count()).toBe(log.entries.length);
      expect(await page.locator('.ev[data-verdict="verified"]').count()).toBe(log.entries.length);
      const rolls = await stepThrough(log, 'verified');
      expect(rolls).toBeGreaterThan(0);
      // The same report the service's verifier gives for this log.
      expect(await pageReport()).toEqual(await serverVerdict(JSON.stringify(log)));
      // The log as the page verified it can be kept: the export itself.
      const [download] = await Promise.all([page.waitForEvent('download'), page.locator('#save').click()]);
      expect(JSON.parse(readFileSync(await download.path(), 'utf8'))).toEqual(log);
    });

    it("draws the fight at the selected event with the overlay's components", async () => {
      const at = log.entries.find((e) => e.type === exchange)!.seq;
      await page.goto(await replayUrl(fightId, `#seq=${at}`));
      await selectedIs(at);
      const view = (await t.http.get(`/fights/${fightId}?at=${at}`).expect(200)).body.view as {
        combatants: {
          id: string;
          name: string;
          hp?: number;
          maxHp?: number;
          vitality?: number;
          maxVitality?: number;
        }[];
      };
      expect(await page.locator('#state .card .name').allTextContents()).toEqual(
        expect.arrayContaining(view.combatants.map((c) => c.name)),
      );
      for (const c of view.combatants) {
        const [value, max] = c.vitality !== undefined ? [c.vitality, c.maxVitality] : [c.hp, c.maxHp];
        expect(await page.locator(`#state .card[data-id="${c.id}"] .meter .val`).textContent()).toBe(
          `${value} / ${max}`,
        );
      }
      expect(await page.locator('#state .exchange .die').count()).toBeGreaterThan(0);
      if (system === 'Narateer')
        expect(await page.locator('#state .card [data-res="ad"] .pip').count()).toBeGreaterThan(0);
      if (system === 'Arcana Beast') {
        expect(await page.locator('#state .card[data-id="ember"] [data-res="stage"]').textContent()).toMatch(
          /^Stage2/,
        );
        expect(await page.locator('#extras .gauge').getAttribute('data-value')).toMatch(/^\d+$/);
        expect(
          await page
            .locator('#state .card[data-id="pip"] .chip.band[data-other="wolf"]')
            .getAttribute('data-band'),
        ).toBe('close');
      }
      if (system === 'Archsoul') {
        expect(await page.locator('#extras svg.map').getAttribute('data-grid')).toBe('hex');
        expect(await page.locator('#extras svg.map .token').count()).toBe(4);
        expect(await page.locator('#extras svg.map .token[data-id="kael"]').getAttribute('data-facing')).toBe(
          'N',
        );
        expect(
          await page
            .locator('#extras svg.map .token[data-id="brute"]')
            .evaluate((g) => [g.getAttribute('data-x'), g.getAttribute('data-y')]),
        ).toEqual(['0', '-1']);
        expect(await page.locator('#extras svg.map .wall').count()).toBe(1);
        // Archsoul's attack test names no combatant: it is the attacker's.
        expect(await page.locator('#detail .roll .who').first().textContent()).toBe('Kael');
      }
      await page.screenshot({
        path: join(ARTIFACTS, `replay-${system.toLowerCase().replace(' ', '-')}.png`),
      });
    });

    it('from an exported file, with no server state: the same events, views and verdicts', async () => {
      await openFile(`${fightId}.json`, JSON.stringify(log));
      expect(await page.locator('#verdict').getAttribute('data-verdict')).toBe('verified');
      const requestsAfterLoad = seen.requests.length;
      await stepThrough(log, 'verified');
      // Checked in the browser: stepping asked the service for nothing.
      expect(seen.requests.length).toBe(requestsAfterLoad);
      expect(await pageReport()).toEqual(await serverVerdict(JSON.stringify(log)));
    });
  });

  // The committed regression fixtures (test/fixtures/logs), recorded with manual dice: faces entered at the table, an undo.
  it.each(['narateer-manual-dice-request-and-undo', 'arcana-beast-manual', 'archsoul-manual'])(
    'the recorded fixture %s, opened as a file, steps end to end with manual dice',
    async (name) => {
      const text = readFileSync(join(__dirname, 'fixtures', 'logs', `${name}.json`), 'utf8');
      const log = JSON.parse(text) as Log;
      await openFile(`${name}.json`, text);
      expect(await pageReport()).toEqual(await serverVerdict(text));
      expect(await page.locator('#verdict').getAttribute('data-verdict')).toBe('verified');
      expect(await page.locator('#verdict .seed').getAttribute('data-seed')).toBe('manual');
      expect(await stepThrough(log, 'manual')).toBeGreaterThan(0);
      const undo = log.entries.find((e) => e.type === 'ActionsUndone');
      if (undo) {
        // Taken back, still in the log: the timeline says so, and the fight at the undo is the fight before it.
        const taken = (undo.data.undone as { fromSeq: number; toSeq: number }[])[0];
        expect(await page.locator(`.ev[data-seq="${taken.fromSeq}"]`).getAttribute('class')).toContain(
          'undone',
        );
        const cards = async (seq: number) => {
          await page.locator(`.ev[data-seq="${seq}"]`).click();
          await selectedIs(seq);
          return page.evaluate(
            `[...document.querySelectorAll('#state .card')].map((c) => [c.dataset.id, [...c.querySelectorAll('.pip')].map((p) => p.className).join(' '), c.querySelector('.meter .val').textContent, c.querySelector('.conds').textContent])`,
          );
        };
        const earlier = await cards(taken.fromSeq - 1);
        expect(await cards(taken.toSeq)).not.toEqual(earlier);
        expect(await cards(undo.seq)).toEqual(earlier);
      }
    },
  );

  it('saved to disk, the page checks a log with no server at all (file://, no request made)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crs-replay-'));
    try {
      // The page's own link to a copy for offline use: one file, the verifier inline.
      expect((await t.anon.get('/replay').expect(200)).text).toMatch(
        /<a class="button" id="offline" href="\/replay\/offline\.html" download="fight-replay\.html"/,
      );
      const saved = await t.anon.get('/replay/offline.html').expect(200);
      expect(saved.headers['content-disposition']).toBe('attachment; filename="fight-replay.html"');
      const html = saved.text;
      expect(html).not.toMatch(/<script[^>]* src=/);
      expect(html).not.toContain('id="offline"');
      writeFileSync(join(dir, 'replay.html'), html);
      const text = readFileSync(join(__dirname, 'fixtures', 'logs', 'arcana-beast-seeded.json'), 'utf8');
      await page.goto(`file://${join(dir, 'replay.html')}`);
      await page
        .locator('#file')
        .setInputFiles({ name: 'fight.json', mimeType: 'application/json', buffer: Buffer.from(text) });
      await page.locator('#verdict[data-verdict="verified"]').waitFor();
      expect(await pageReport()).toEqual(await serverVerdict(text));
      expect(await page.locator('.ev[data-verdict="verified"]').count()).toBe(
        (JSON.parse(text) as Log).entries.length,
      );
      expect(seen.requests.filter((u) => !u.startsWith('file://'))).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });

  it('saved as HTML only, without the script the service serves, the page says it checks nothing and where to get one that does', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'crs-replay-'));
    try {
      writeFileSync(join(dir, 'replay.html'), (await t.anon.get('/replay').expect(200)).text);
      await page.goto(`file://${join(dir, 'replay.html')}`);
      await page.locator('body[data-loaded="no-verifier"]').waitFor({ state: 'attached' });
      expect(await page.locator('#verdict').textContent()).toContain('/replay/offline.html');
      // The one error: the script it names is not on disk.
      expect(seen.errors).toEqual([
        expect.stringMatching(/^Failed to load resource: net::ERR_FILE_NOT_FOUND/),
      ]);
      seen.errors.length = 0;
      expect(seen.requests.filter((u) => !u.startsWith('file://'))).toEqual([]);
    } finally {
      removeDir(dir);
    }
  });

  describe('the verifier, a script of its own the browser keeps', () => {
    /** The raw answer, bytes as sent (fetch would decode them). */
    const raw = (path: string, headers: Record<string, string> = {}) =>
      new Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }>((resolve, reject) => {
        httpGet(`${t.url}${path}`, { headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }),
          );
        }).on('error', reject);
      });
    let src = '';
    let integrity = '';

    beforeAll(async () => {
      const html = (await t.anon.get('/replay').expect(200)).text;
      const m =
        /<script nonce="[^"]+" src="(\/replay\/verifier\.[0-9a-f]{20}\.js)" integrity="(sha384-[A-Za-z0-9+/=]+)"><\/script>/.exec(
          html,
        );
      expect(m).not.toBeNull();
      [, src, integrity] = m!;
    });

    it('given the page, then it names the script by its content hash, and the script is what that hash and its integrity say', async () => {
      const plain = await raw(src, { 'accept-encoding': 'identity' });
      expect(plain.status).toBe(200);
      expect(plain.headers).toMatchObject({
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': 'public, max-age=31536000, immutable',
        vary: 'Accept-Encoding',
      });
      expect(plain.headers['content-encoding']).toBeUndefined();
      const sha256 = createHash('sha256').update(plain.body).digest('hex');
      expect(src).toBe(`/replay/verifier.${sha256.slice(0, 20)}.js`);
      expect(integrity).toBe(`sha384-${createHash('sha384').update(plain.body).digest('base64')}`);
      expect(plain.headers.etag).toBe(`"${sha256.slice(0, 20)}"`);
      // The page's HTML is small now; the ~800 KiB are in the script.
      expect((await t.anon.get('/replay').expect(200)).text.length).toBeLessThan(plain.body.length / 4);
    });

    it('given a browser that takes brotli or gzip, then it gets the same script compressed, each with its own ETag', async () => {
      const plain = (await raw(src, { 'accept-encoding': 'identity' })).body;
      const br = await raw(src, { 'accept-encoding': 'gzip, deflate, br' });
      expect({ encoding: br.headers['content-encoding'], etag: br.headers.etag }).toEqual({
        encoding: 'br',
        etag: expect.stringMatching(/-br"$/),
      });
      expect(brotliDecompressSync(br.body).equals(plain)).toBe(true);
      expect(br.body.length).toBeLessThan(plain.length / 3);
      const gz = await raw(src, { 'accept-encoding': 'gzip' });
      expect({ encoding: gz.headers['content-encoding'], etag: gz.headers.etag }).toEqual({
        encoding: 'gzip',
        etag: expect.stringMatching(/-gzip"$/),
      });
      expect(gunzipSync(gz.body).equals(plain)).toBe(true);
    });

    it('given its ETag in If-None-Match, then 304 and no body; given another build’s hash, then 404 NOT_FOUND naming it, never cached', async () => {
      for (const encoding of ['identity', 'br']) {
        const first = await raw(src, { 'accept-encoding': encoding });
        const again = await raw(src, {
          'accept-encoding': encoding,
          'if-none-match': String(first.headers.etag),
        });
        expect({ encoding, status: again.status, body: again.body.length }).toEqual({
          encoding,
          status: 304,
          body: 0,
        });
      }
      const stale = await raw('/replay/verifier.0123456789abcdef0123.js');
      expect({ status: stale.status, cache: stale.headers['cache-control'] }).toEqual({
        status: 404,
        cache: 'no-store',
      });
      expect(JSON.parse(stale.body.toString())).toMatchObject({ code: 'NOT_FOUND', field: 'hash' });
    });

    it('given a second visit, then the browser runs the script from its cache, without asking the service', async () => {
      const client = await page.context().newCDPSession(page);
      await client.send('Network.enable');
      const paths = new Map<string, string>();
      const fromCache = new Set<string>();
      client.on('Network.requestWillBeSent', (e) => paths.set(e.requestId, new URL(e.request.url).pathname));
      client.on('Network.requestServedFromCache', (e) => fromCache.add(e.requestId));
      client.on('Network.responseReceived', (e) => e.response.fromDiskCache && fromCache.add(e.requestId));
      const visit = async () => {
        paths.clear();
        fromCache.clear();
        await page.goto(`${t.url}/replay`);
        await page.waitForFunction(() => 'ReplayVerifier' in globalThis);
        return [...paths].filter(([, path]) => path === src).map(([id]) => fromCache.has(id));
      };
      await visit();
      expect(await visit()).toEqual([true]);
      await client.detach();
    });
  });

  describe('a tampered or truncated export', () => {
    let log: Log;
    let exchangeSeq = 0;

    beforeAll(async () => {
      const fightId = await play(
        duel({ mode: 'seeded', seed: 'replay-tamper', drawKey: 'replay-tamper' }),
        duelRound,
      );
      await end(fightId);
      log = await exportLog(fightId);
      exchangeSeq = log.entries.find((e) => e.type === 'ExchangeResolved')!.seq;
    });

    it('a die changed in the file: flagged at that event, with the verdict POST /audit/verify gives', async () => {
      const tampered: Log = JSON.parse(JSON.stringify(log));
      const side = tampered.entries[exchangeSeq - 1].data.attacker;
      side.roll.faces[0] = (side.roll.faces[0] % 6) + 1;
      const text = JSON.stringify(tampered);
      await openFile('tampered.json', text);
      expect(await page.locator('#verdict').getAttribute('data-verdict')).toBe('broken');
      expect(await page.locator('#verdict .break').getAttribute('data-seq')).toBe(String(exchangeSeq));
      expect(await page.locator('#verdict .break').textContent()).toMatch(
        new RegExp(`^Breaks at seq ${exchangeSeq} \\(chain\\)`),
      );
      expect(await page.locator(`.ev[data-seq="${exchangeSeq}"]`).getAttribute('data-verdict')).toBe(
        'diverges',
      );
      expect(await page.locator(`.ev[data-seq="${exchangeSeq}"]`).getAttribute('data-chain')).toBe('broken');
      expect(await page.locator(`.ev[data-seq="${exchangeSeq - 1}"]`).getAttribute('data-verdict')).toBe(
        'verified',
      );
      expect(await page.locator(`.ev[data-seq="${exchangeSeq + 1}"]`).getAttribute('data-verdict')).toBe(
        'after-break',
      );
      // The tampered die no longer is the seed's draw: recomputed in the page, it shows the real face.
      await page.locator('#verdict .break button').click();
      await selectedIs(exchangeSeq);
      expect(await page.locator('#detail .roll[data-status="mismatch"]').count()).toBe(1);
      expect(await page.locator('#detail .divergence').textContent()).toMatch(
        /does not follow from the previous hash/,
      );
      expect(await pageReport()).toEqual(await serverVerdict(text));
      await page.screenshot({ path: join(ARTIFACTS, 'replay-tampered.png') });
    });

    it('a truncated NDJSON export: the break is after the last event it holds', async () => {
      const ndjson = (await t.http.get(`/fights/${log.fightId as string}/log?format=ndjson`).expect(200))
        .text;
      const lines = ndjson.trimEnd().split('\n');
      const text = lines.slice(0, lines.length - 2).join('\n') + '\n';
      await openFile('truncated.ndjson', text);
      const held = lines.length - 3;
      expect(await page.locator('#verdict').getAttribute('data-verdict')).toBe('broken');
      expect(await page.locator('#verdict .break').getAttribute('data-seq')).toBe(String(held + 1));
      expect(await page.locator('.ev-end').textContent()).toMatch(
        new RegExp(
          `^After seq ${held}: the header counts ${log.entries.length} events but the log holds ${held}`,
        ),
      );
      // Cut before FightEnded, the log no longer reveals the seed: its dice are only committed, as the verifier says.
      expect(await page.locator('.ev[data-verdict="committed"]').count()).toBe(held);
      expect(await page.locator('#verdict .seed').textContent()).toMatch(/^Seed not yet revealed/);
      expect(await pageReport()).toEqual(
        (
          await t.http
            .post('/audit/verify')
            .set('content-type', 'application/x-ndjson')
            .send(text)
            .expect(200)
        ).body,
      );
    });

    it('not a fight log: refused as POST /audit/verify refuses it', async () => {
      await openFile('notes.json', '{"hello": "world"}');
      expect(await page.locator('#verdict').getAttribute('data-verdict')).toBe('refused');
      const server = (
        await t.http
          .post('/audit/verify')
          .set('content-type', 'application/json')
          .send('{"hello": "world"}')
          .expect(422)
      ).body;
      expect(await page.locator('#verdict .msg').textContent()).toContain(server.code);
      expect(await page.locator('#verdict .msg').textContent()).toContain(server.message);
    });
  });

  describe('an unfinished fight', () => {
    it('shows its dice as committed: seed not yet revealed; it follows the fight until the seed is revealed', async () => {
      const fightId = await play(
        duel({ mode: 'seeded', seed: 'replay-live', drawKey: 'replay-live' }),
        duelRound,
      );
      const log = await exportLog(fightId);
      await page.goto(await replayUrl(fightId));
      await page.locator('body[data-loaded="true"]').waitFor({ state: 'attached' });
      expect(await page.locator('#verdict').getAttribute('data-verdict')).toBe('so-far');
      expect(await page.locator('#verdict .seed').textContent()).toMatch(/^Seed not yet revealed/);
      expect(await page.locator('.ev[data-verdict="committed"]').count()).toBe(log.entries.length);
      const rolls = await stepThrough(log, 'committed');
      expect(rolls).toBeGreaterThan(0);
      await page.locator('#first').click();
      await page.locator('#next-roll').click();
      expect(await page.locator('#detail .roll .check').first().textContent()).toMatch(
        /seed not yet revealed/,
      );
      // The page follows the live fight: watching its last event, it moves on to each new one by itself…
      expect(await page.locator('#source').textContent()).toContain('following live');
      await page.keyboard.press('End');
      await selectedIs(log.entries.length);
      await t.http.post(`/fights/${fightId}/commands`).send({ type: 'StartActivation' }).expect(200);
      const more = (await exportLog(fightId)).entries.length;
      expect(more).toBeGreaterThan(log.entries.length);
      await selectedIs(more);
      expect(await page.locator('.ev').count()).toBe(more);
      // …and once the fight ends and reveals the seed, the same dice turn from committed to verified.
      await end(fightId);
      await page.locator('#verdict[data-verdict="verified"]').waitFor();
      expect(await page.locator('.ev[data-verdict="verified"]').count()).toBe(more + 1);
      await selectedIs(more + 1);
      expect(await page.locator('#source').textContent()).not.toContain('following live');
    });
  });

  it('an Archsoul fight on a square grid: the map is square, each token on its space, facing where it faces, blocked spaces filled', async () => {
    const square: Command[] = [
      { type: 'SetMap', grid: 'square', blocked: [{ x: 2, y: 2 }] },
      { type: 'PlaceCombatant', combatantId: 'kael', position: { x: 0, y: 0 }, facing: 'E' },
      { type: 'PlaceCombatant', combatantId: 'ilsa', position: { x: -1, y: 0 }, facing: 'NE' },
      { type: 'PlaceCombatant', combatantId: 'brute', position: { x: 1, y: 0 }, facing: 'W' },
      { type: 'PlaceCombatant', combatantId: 'scout', position: { x: 1, y: 3 }, facing: 'S' },
    ];
    const fightId = await play(
      skirmish({ mode: 'seeded', seed: 'replay-square', drawKey: 'replay-square' }),
      square,
    );
    const n = (await exportLog(fightId)).entries.length;
    await page.goto(await replayUrl(fightId, `#seq=${n}`));
    await selectedIs(n);
    expect(await page.locator('#extras svg.map').getAttribute('data-grid')).toBe('square');
    const tokens = await page
      .locator('#extras svg.map .token')
      .evaluateAll((gs) =>
        gs.map((g) => [
          g.getAttribute('data-id'),
          g.getAttribute('data-x'),
          g.getAttribute('data-y'),
          g.getAttribute('data-facing'),
        ]),
      );
    expect(tokens).toEqual([
      ['kael', '0', '0', 'E'],
      ['ilsa', '-1', '0', 'NE'],
      ['brute', '1', '0', 'W'],
      ['scout', '1', '3', 'S'],
    ]);
    expect(
      await page
        .locator('#extras svg.map .cell.blocked')
        .evaluateAll((cs) => cs.map((c) => [c.getAttribute('data-x'), c.getAttribute('data-y')])),
    ).toEqual([['2', '2']]);
    // Kael faces east: the wedge's tip is to the right of the token's centre.
    const [tipX, centreX] = await page
      .locator('#extras svg.map .token[data-id="kael"]')
      .evaluate((g) => [
        Number(g.querySelector('.facing')!.getAttribute('points')!.split(' ')[0].split(',')[0]),
        Number(g.querySelector('.disc')!.getAttribute('cx')),
      ]);
    expect(tipX).toBeGreaterThan(centreX);
  });

  describe('navigation and layout', () => {
    let fightId = '';
    let log: Log;
    beforeAll(async () => {
      fightId = await play(
        skirmish({ mode: 'seeded', seed: 'replay-nav', drawKey: 'replay-nav' }),
        skirmishRound,
      );
      await end(fightId);
      log = await exportLog(fightId);
    });

    it('#seq=N opens at that event; Home, End, arrows and the step buttons move; the link follows', async () => {
      const n = log.entries.length;
      await page.goto(await replayUrl(fightId, '#seq=5'));
      await selectedIs(5);
      await page.keyboard.press('End');
      await selectedIs(n);
      expect(new URL(page.url()).hash).toBe(`#seq=${n}`);
      await page.keyboard.press('ArrowLeft');
      await selectedIs(n - 1);
      await page.keyboard.press('Home');
      await selectedIs(1);
      await page.locator('#next').click();
      await selectedIs(2);
      await page.locator('#last').click();
      await selectedIs(n);
      await page.locator('#first').click();
      await selectedIs(1);
      await page.locator('#next-roll').click();
      const firstRoll = log.entries.find((e) => JSON.stringify(e.data).includes('"faces"'))!.seq;
      await selectedIs(firstRoll);
      await page.locator(`.ev[data-seq="3"]`).click();
      await selectedIs(3);
      await page.evaluate("location.hash = '#seq=7'");
      await selectedIs(7);
    });

    it('reads at 1280×720 and on a phone: nothing overflows sideways', async () => {
      for (const [width, height, name] of [
        [1280, 720, 'replay-1280x720'],
        [390, 844, 'replay-phone'],
      ] as const) {
        await page.setViewportSize({ width, height });
        await page.goto(await replayUrl(fightId, '#seq=9'));
        await selectedIs(9);
        expect(await page.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
        for (const sel of ['#verdict', '.controls', '#timeline', '#state', '#detail'])
          expect(await page.locator(sel).isVisible()).toBe(true);
        await page.screenshot({ path: join(ARTIFACTS, `${name}.png`), fullPage: name === 'replay-phone' });
      }
    });

    it('names are text, never markup', async () => {
      const hostile = '<img src=x onerror="document.title=\'pwned\'">Eve</script>';
      const id = await play(
        {
          ...duel({ mode: 'seeded', seed: 'replay-xss', drawKey: 'replay-xss' }),
          name: hostile,
          combatants: [
            { id: 'mira', name: hostile, sheet: mira },
            { id: 'orin', name: 'Orin', sheet: orinUnranged },
          ],
        },
        duelRound.slice(0, 4),
      );
      await page.goto(await replayUrl(id));
      await page.locator('body[data-loaded="true"]').waitFor({ state: 'attached' });
      expect(await page.title()).not.toBe('pwned');
      expect(await page.locator('#state .card[data-id="mira"] .name').textContent()).toBe(hostile);
      expect(await page.locator('img').count()).toBe(0);
    });
  });

  describe('refuses what it must, with a page a person can read', () => {
    it('the token and an Authorization header too: 400 naming token, as every GET refuses two credentials', async () => {
      const fightId = await play(duel({ mode: 'manual' }), []);
      const token = encodeURIComponent(await spectator(fightId));
      const res = await fetch(`${t.url}/replay/${fightId}?token=${token}`, {
        headers: { authorization: `Bearer ${t.apiKey}` },
      });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('token');
      expect((await fetch(`${t.url}/replay/${fightId}?token=${token}`)).status).toBe(200);
    });

    it('a bad token: 401; a token for another fight: 404; no token: 400', async () => {
      const fightId = await play(duel({ mode: 'manual' }), []);
      const other = await play(duel({ mode: 'manual' }), []);
      const bad = await page.goto(`${t.url}/replay/${fightId}?token=nope`);
      expect(bad!.status()).toBe(401);
      expect(await page.locator('main.error').getAttribute('data-code')).toBe('INVALID_CREDENTIALS');
      const wrong = await page.goto(
        `${t.url}/replay/${fightId}?token=${encodeURIComponent(await spectator(other))}`,
      );
      expect(wrong!.status()).toBe(404);
      const none = await page.goto(`${t.url}/replay/${fightId}`);
      expect(none!.status()).toBe(400);
      expect(await page.locator('h1').textContent()).toBe('This replay link is not valid');
    });
  });
});
