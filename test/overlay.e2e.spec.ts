import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { removeDir, startApp, TestApp } from './support/app';
import { ARTIFACTS, describeInBrowserFor, launchChromium, watch } from './support/chromium';
import { declare, mira, opening, orin, respond } from './support/narateer-sheets';
import { kill, startServer, tenantKey } from './support/server';

const describeInBrowser = describeInBrowserFor('test/overlay.e2e.spec.ts');

// The worked example of test/narateer.e2e.spec.ts: manual dice put known faces on screen.
const narateer = (name = 'Duel at the ford', miraName = 'Mira') => ({
  system: 'narateer',
  name,
  dice: { mode: 'manual' },
  combatants: [
    { id: 'mira', name: miraName, sheet: mira },
    { id: 'orin', name: 'Orin', sheet: orin },
  ],
});
const launch = () => launchChromium({ width: 1920, height: 1080 });

const texts = (page: Page, selector: string) => page.locator(selector).allTextContents();

/** WCAG 2.x contrast ratio of two opaque CSS colours as getComputedStyle gives them (`rgb(r, g, b)`). */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const m = /^rgba?\((\d+), (\d+), (\d+)(?:, ([\d.]+))?\)$/.exec(css);
    if (!m) throw new Error(`not an rgb() colour: ${css}`);
    if (m[4] !== undefined && Number(m[4]) !== 1)
      throw new Error(`translucent, so its contrast depends on what is behind it: ${css}`);
    const [r, g, bl] = [m[1], m[2], m[3]].map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi + 0.05) / (lo + 0.05);
}

describeInBrowser('overlay page in headless Chromium', () => {
  let t: TestApp;
  let browser: Awaited<ReturnType<typeof launch>>;
  let page: Page;
  let seen: ReturnType<typeof watch>;

  /** The last seq each fight's commands wrote: reads wait for the read side to reach it (`?minSeq=`). */
  const written = new Map<string, number>();
  const send = async (id: string, cmd: Record<string, unknown>) => {
    const body = (await t.http.post(`/fights/${id}/commands`).send(cmd).expect(200)).body;
    written.set(id, Math.max(written.get(id) ?? 0, body.seq as number));
    return body;
  };
  /** GET /fights/:id once the fight-views projection holds every command this suite sent. */
  const current = async (id: string) =>
    (await t.http.get(`/fights/${id}?minSeq=${written.get(id) ?? 0}`).expect(200)).body;
  const spectator = async (id: string) =>
    (await t.http.post(`/fights/${id}/tokens`).send({ role: 'spectator' }).expect(201)).body as {
      token: string;
      tokenId: string;
    };
  const overlay = (id: string, token: string, params = '') =>
    `${t.url}/overlay/${id}?token=${encodeURIComponent(token)}${params}`;
  /** The page may first draw an older view (the read side lags): wait until it shows the fight's current seq. */
  const showsCurrent = async (id: string) =>
    page.locator(`body[data-seq="${(await current(id)).seq}"]`).waitFor({ state: 'attached' });

  beforeAll(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    [t, browser] = await Promise.all([startApp({ listen: true }), launch()]);
  });
  afterAll(async () => {
    await browser?.close();
    await t?.close();
    if (t) removeDir(t.dataDir);
  });
  beforeEach(async () => {
    page = await browser.context.newPage();
    page.setDefaultTimeout(10_000);
    seen = watch(page);
  });
  afterEach(async () => {
    await page.close();
    // Self-contained: nothing but the service itself was asked for, and the CSP refused nothing of the page's own.
    const origin = new URL(t.url!).origin;
    expect(seen.requests.filter((u) => !u.startsWith(origin))).toEqual([]);
    expect(seen.errors.filter((e) => /Content Security Policy|Refused to/i.test(e))).toEqual([]);
  });

  describe('a Narateer fight', () => {
    let id = '';
    let token = '';

    it('renders initiative order, whose turn it is, Vitality bars and Ready/Used/Wounded dice', async () => {
      id = (await t.http.post('/fights').send(narateer()).expect(201)).body.fightId;
      for (const cmd of opening) await send(id, cmd);
      token = (await spectator(id)).token;
      const res = await page.goto(overlay(id, token));
      expect(res!.status()).toBe(200);
      await page.locator('.card').nth(1).waitFor();
      await showsCurrent(id);
      expect(await texts(page, '.card .name')).toEqual(['Mira', 'Orin']);
      expect(await texts(page, '.card .pos')).toEqual(['1', '2']);
      expect(await page.locator('.card.active .name').textContent()).toBe('Mira');
      expect(await page.locator('.head').textContent()).toMatch(
        /Narateer · Duel at the ford.*Round 1.*Turn: Mira/,
      );
      expect(await texts(page, '.card .meter .val')).toEqual(['8 / 8', '8 / 8']);
      expect(await page.locator('.card[data-id="mira"] [data-res="ad"] .pip.ready').count()).toBe(5);
      // maxMD 0: no empty MD row.
      expect(await page.locator('[data-res="md"]').count()).toBe(0);
    });

    it('updates within a second of a command and shows the exchange with its dice faces', async () => {
      await page.goto(overlay(id, token));
      await page.locator('.card.active').waitFor();
      await send(id, declare);
      await page.locator('.head .wait', { hasText: 'Waiting for Orin' }).waitFor({ timeout: 1000 });

      const answered = await send(id, respond);
      const sent = Date.now();
      await page.locator('.exchange .die').nth(4).waitFor({ timeout: 1000 });
      await page
        .locator('.card[data-id="orin"] .meter .val', { hasText: '5 / 8' })
        .waitFor({ timeout: 1000 });
      const elapsed = Date.now() - sent;
      expect(elapsed).toBeLessThan(1000);

      expect(await texts(page, '.exchange .side .who')).toEqual(['Mira', 'Orin']);
      expect(await texts(page, '.exchange .die')).toEqual(['6', '4', '3', '4', '3']);
      expect(await texts(page, '.exchange .note')).toEqual(['total 4', 'total 2']);
      expect(await page.locator('.exchange .result').textContent()).toBe('Hit · Mira wins · margin 2');
      expect(await page.locator('.exchange .fx').textContent()).toBe('Orin: 3 wounds → Vitality 5');
      expect(await page.locator('.exchange.fresh').count()).toBe(1);
      const orinView = answered.view.combatants.find((c: { id: string }) => c.id === 'orin');
      const pips = async (kind: string) =>
        page.locator(`.card[data-id="orin"] [data-res="ad"] .pip.${kind}`).count();
      expect({
        ready: await pips('ready'),
        used: await pips('used'),
        wounded: await pips('wounded'),
      }).toEqual({ ready: orinView.ad.ready, used: orinView.ad.used, wounded: orinView.ad.wounded });
      expect(orinView.ad.wounded).toBeGreaterThan(0);
    });

    it.each([
      ['bar', 'dark'],
      ['bar', 'light'],
      ['sidebar', 'dark'],
      ['sidebar', 'light'],
    ])('layout=%s theme=%s: a screenshot for the record', async (layout, theme) => {
      await page.goto(overlay(id, token, `&layout=${layout}&theme=${theme}&scale=1`));
      await page.locator('.exchange .die').nth(4).waitFor();
      expect(await page.locator(`body.layout-${layout}.theme-${theme}`).count()).toBe(1);
      // Transparent around the panels, so OBS composites it over the game.
      expect(
        await page.evaluate(
          '[getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).backgroundColor]',
        ),
      ).toEqual(['rgba(0, 0, 0, 0)', 'rgba(0, 0, 0, 0)']);
      await page.waitForTimeout(1500); // let the dice land
      await page.screenshot({
        path: join(ARTIFACTS, `overlay-${layout}-${theme}.png`),
        omitBackground: true,
      });
    });

    it('theme=light: the Vitality value reads at WCAG AA (4.5:1) on its track and on every fill colour', async () => {
      const fight = (await t.http.post('/fights').send(narateer()).expect(201)).body.fightId;
      await page.goto(overlay(fight, (await spectator(fight)).token, '&theme=light'));
      await page.locator('.card .meter .val').first().waitFor();
      const colours = await page.evaluate<{
        value: string;
        label: string;
        track: string;
        fills: Record<string, string>;
      }>(`(() => {
        const meter = document.querySelector('.card .meter');
        const fill = meter.querySelector('.fill');
        fill.style.transition = 'none'; // the colour itself, not a step of its fade
        const out = { value: getComputedStyle(meter.querySelector('.val')).color, label: getComputedStyle(meter.querySelector('.lbl')).color, track: getComputedStyle(meter).backgroundColor, fills: {} };
        for (const level of ['ok', 'low', 'crit']) {
          if (level === 'ok') fill.removeAttribute('data-level'); else fill.setAttribute('data-level', level);
          out.fills[level] = getComputedStyle(fill).backgroundColor;
        }
        return out;
      })()`);
      const ratios = Object.fromEntries(
        [['track', colours.track], ...Object.entries(colours.fills)].map(([where, bg]) => [
          where,
          Math.round(Math.min(contrast(colours.value, bg), contrast(colours.label, bg)) * 100) / 100,
        ]),
      );
      console.log(`light theme, meter text contrast: ${JSON.stringify(ratios)}`);
      for (const ratio of Object.values(ratios)) expect(ratio).toBeGreaterThanOrEqual(4.5);
    });

    it('scales with ?scale=', async () => {
      await page.goto(overlay(id, token, '&scale=2'));
      expect(await page.evaluate('getComputedStyle(document.documentElement).fontSize')).toBe('36px');
    });
  });

  it('shows names as text, never as markup', async () => {
    const hostile = '<img src=x onerror="document.title=\'pwned\'">Eve</script>';
    const id = (await t.http.post('/fights').send(narateer('</script><b>bold</b>', hostile)).expect(201)).body
      .fightId;
    const { token } = await spectator(id);
    const res = await page.goto(overlay(id, token));
    const csp = res!.headers()['content-security-policy'];
    expect(csp).toMatch(
      /^default-src 'none'; script-src 'nonce-[A-Za-z0-9+/=]{20,}'; style-src 'nonce-[A-Za-z0-9+/=]{20,}'; connect-src 'self'; img-src data:/,
    );
    await page.locator('.card').nth(1).waitFor();
    expect(await page.locator('.card[data-id="mira"] .name').textContent()).toBe(hostile);
    expect(await page.locator('.head .sys').textContent()).toBe('Narateer · </script><b>bold</b>');
    expect(await page.locator('img, b').count()).toBe(0);
    expect(await page.title()).toBe('Fight overlay');
    const again = await fetch(overlay(id, token));
    expect(again.headers.get('content-security-policy')).not.toBe(csp); // a fresh nonce per response
  });

  describe('refuses what it must, with a page a streamer can read', () => {
    let id = '';
    beforeAll(async () => {
      id = (await t.http.post('/fights').send(narateer()).expect(201)).body.fightId;
    });

    it('a bad token: 401', async () => {
      const res = await page.goto(overlay(id, 'crs_nope_0123456789'));
      expect(res!.status()).toBe(401);
      expect(res!.headers()['content-type']).toMatch(/^text\/html/);
      expect(await page.locator('h1').textContent()).toBe('This token does not work');
      expect(await page.locator('.error').getAttribute('data-code')).toBe('INVALID_CREDENTIALS');
    });

    it('a token for another fight: 404', async () => {
      const other = (await t.http.post('/fights').send(narateer()).expect(201)).body.fightId;
      const res = await page.goto(overlay(id, (await spectator(other)).token));
      expect(res!.status()).toBe(404);
      expect(await page.locator('h1').textContent()).toBe('No such fight for this token');
    });

    it.each([
      ['&layout=diagonal', 'layout'],
      ['&theme=neon', 'theme'],
      ['&scale=9', 'scale'],
      ['&scale=big', 'scale'],
      ['&scale=0x1', 'scale'],
      ['&scale=1e0', 'scale'],
      ['&scale=.5', 'scale'],
      ['&scale=1.', 'scale'],
      ['&scale=%201', 'scale'],
      ['&colour=red', 'colour'],
    ])('%s: 400', async (params, field) => {
      const res = await fetch(overlay(id, t.apiKey, params));
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain('This overlay link is not valid');
      expect(html).toContain(`(${field})`);
    });

    it('the token and an Authorization header too: 400 naming token, as every GET refuses two credentials', async () => {
      const res = await fetch(overlay(id, t.apiKey), { headers: { authorization: `Bearer ${t.apiKey}` } });
      expect(res.status).toBe(400);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(await res.text()).toContain('(token)');
    });

    it('no token: 400; the GM key: 200', async () => {
      expect((await fetch(`${t.url}/overlay/${id}`)).status).toBe(400);
      expect((await fetch(overlay(id, t.apiKey))).status).toBe(200);
    });

    it('a token revoked while the page is live: the page says so', async () => {
      const { token, tokenId } = await spectator(id);
      await page.goto(overlay(id, token));
      await page.locator('.card').nth(1).waitFor();
      await t.http.delete(`/fights/${id}/tokens/${tokenId}`).expect(204);
      await page.locator('.status.fatal', { hasText: 'revoked' }).waitFor({ timeout: 5000 });
      expect((await fetch(overlay(id, token))).status).toBe(401);
    });
  });

  it('Archsoul: HP, AP and facing', async () => {
    const weapon = { id: 'sword', name: 'Sword', type: 'melee', damage: 2 };
    const sheet = {
      attributes: { precision: 2, athletics: 2, endurance: 2, soulpower: 1, intellect: 1 },
      skills: { awareness: 1, meleeWeapons: 2, rangedWeapons: 2, weaponMastery: 1, resolve: 1 },
      maxHp: 10,
      defense: 1,
      weapons: [weapon],
    };
    const created = await t.http
      .post('/fights')
      .send({
        system: 'archsoul',
        name: 'Skirmish',
        dice: { mode: 'manual' },
        combatants: [
          { id: 'kael', name: 'Kael', side: 'heroes', sheet },
          { id: 'brute', name: 'Brute', side: 'enemies', sheet },
        ],
      })
      .expect(201);
    const id = created.body.fightId;
    for (const cmd of [
      { type: 'SetMap', grid: 'hex' },
      { type: 'PlaceCombatant', combatantId: 'kael', position: { x: 0, y: 0 }, facing: 'N' },
      { type: 'PlaceCombatant', combatantId: 'brute', position: { x: 0, y: 3 }, facing: 'S' },
      { type: 'SetInitiative', order: ['kael', 'brute'] },
      { type: 'StartRound' },
    ])
      await send(id, cmd);
    const view = (await current(id)).view;
    await page.goto(overlay(id, (await spectator(id)).token));
    await page.locator('.card').nth(1).waitFor();
    await showsCurrent(id);
    expect(await texts(page, '.card .name')).toEqual(['Kael', 'Brute']);
    expect(await texts(page, '.card .meter .lbl')).toEqual(['HP', 'HP']);
    expect(await page.locator('.card[data-id="kael"] .meter .val').textContent()).toBe('10 / 10');
    expect(await page.locator('.card[data-id="kael"] [data-res="facing"]').textContent()).toBe('Facing↑ N');
    expect(await page.locator('.card[data-id="brute"] [data-res="facing"]').textContent()).toBe('Facing↓ S');
    const kael = view.combatants.find((c: { id: string }) => c.id === 'kael');
    expect(await page.locator('.card[data-id="kael"] [data-res="ap"]').textContent()).toBe(`AP${kael.ap}`);
    expect(await page.locator('.card.active .name').allTextContents()).toEqual(
      view.openTurns.map((c: string) => (c === 'kael' ? 'Kael' : 'Brute')),
    );
    await page.screenshot({ path: join(ARTIFACTS, 'overlay-archsoul.png'), omitBackground: true });
  });

  it('Arcana Beast: Stage, Stamina and HP', async () => {
    const stats = { brawn: 3, agility: 2, endurance: 2, spirit: 2, technique: 2 };
    const ember = {
      kind: 'beast',
      stats,
      hp: 12,
      stamina: 2,
      stage: 2,
      stages: [{ stage: 0 }, { stage: 1 }, { stage: 2, name: 'Cinderhound' }],
      attacks: [{ id: 'claw', name: 'Claw', range: 'melee' }],
    };
    const ash = {
      kind: 'binder',
      beastId: 'ember',
      stats: { ...stats, brawn: 1, spirit: 3 },
      hp: 10,
      stamina: 3,
      inventory: [],
    };
    const wolf = {
      kind: 'beast',
      stats: { ...stats, brawn: 2 },
      hp: 8,
      stamina: 1,
      stage: 1,
      stages: [{ stage: 1 }],
      attacks: [{ id: 'bite', name: 'Bite', range: 'melee' }],
    };
    const created = await t.http
      .post('/fights')
      .send({
        system: 'arcana-beast',
        name: 'Ember and Ash',
        dice: { mode: 'manual' },
        combatants: [
          { id: 'ember', name: 'Ember', side: 'heroes', sheet: ember },
          { id: 'ash', name: 'Ash', side: 'heroes', sheet: ash },
          { id: 'wolf', name: 'Wolf', side: 'wild', sheet: wolf },
        ],
      })
      .expect(201);
    const id = created.body.fightId;
    for (const cmd of [{ type: 'SetInitiative', order: ['ember', 'ash', 'wolf'] }, { type: 'StartRound' }])
      await send(id, cmd);
    await page.goto(overlay(id, (await spectator(id)).token, '&layout=sidebar'));
    await page.locator('.card').nth(2).waitFor();
    await showsCurrent(id);
    expect(await texts(page, '.card .name')).toEqual(['Ember', 'Ash', 'Wolf']);
    expect(await texts(page, '.card .meter .val')).toEqual(['12 / 12', '10 / 10', '8 / 8']);
    expect(await page.locator('.card[data-id="ember"] [data-res="stage"]').textContent()).toBe(
      'Stage2 · Cinderhound',
    );
    expect(await page.locator('.card[data-id="ash"] [data-res="stage"]').count()).toBe(0);
    expect(await page.locator('.card[data-id="ash"] [data-res="stamina"] .pip.ready').count()).toBe(3);
    expect(await page.locator('.card[data-id="wolf"] [data-res="stamina"]').getAttribute('title')).toBe(
      'Stamina 1 of 1',
    );
    await page.screenshot({ path: join(ARTIFACTS, 'overlay-arcana-beast.png'), omitBackground: true });
  });

  it('layout=sidebar: the dice of each side of an exchange stay on one row when its note is long (the note moves or wraps instead)', async () => {
    const id = (await t.http.post('/fights').send(narateer()).expect(201)).body.fightId;
    const { token } = await spectator(id);
    const test = (faces: number[], successes: number, difficulty: number) => ({
      pool: faces.length,
      difficulty,
      removed: 0,
      roll: { faces },
      successes,
      criticalFailure: false,
      modifiers: [],
    });
    const view = {
      fightId: id,
      system: 'archsoul',
      name: 'Skirmish',
      status: 'active',
      round: 2,
      initiative: ['kael', 'brute'],
      openTurns: ['kael'],
      combatants: [
        { id: 'kael', name: 'Kael of the Ashen Vale', hp: 9, maxHp: 10 },
        { id: 'brute', name: 'Brute of the Iron Hills', hp: 4, maxHp: 10 },
      ],
    };
    const event = {
      type: 'ExchangeResolved',
      fightId: id,
      seq: 9,
      data: {
        attackerId: 'kael',
        targetId: 'brute',
        weaponId: 'sword',
        attackType: 'melee',
        action: 'attack',
        distance: 1,
        targetArc: 'front',
        attack: test([6, 5, 2, 1], 2, 4),
        defense: 1,
        shieldBonus: 0,
        resistance: 0,
        soulDefence: test([4, 3, 1, 6], 1, 5),
        hit: true,
      },
    };
    await page.route(/\/fights\/[^/]+\/stream\?/, (route) =>
      new URL(route.request().url()).searchParams.get('after') === '0'
        ? route.fulfill({
            status: 200,
            contentType: 'text/event-stream',
            body: `id: 9\nevent: ExchangeResolved\ndata: ${JSON.stringify(event)}\n\n`,
          })
        : undefined,
    );
    await page.route(/\/fights\/[^/?]+\?/, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ fightId: id, seq: 9, view }),
      }),
    );
    await page.goto(overlay(id, token, '&layout=sidebar&theme=light'));
    await page.locator('.exchange .side').nth(1).locator('.die').nth(3).waitFor();
    expect(await texts(page, '.exchange .note')).toEqual([
      '2 successes (difficulty 4)',
      '1 success (difficulty 5)',
    ]);
    await page.waitForTimeout(1500); // let the dice land: they tumble in from above
    for (const side of await page.locator('.exchange .side').all()) {
      const tops = await side
        .locator('.die')
        .evaluateAll((dice) => dice.map((d) => Math.round(d.getBoundingClientRect().top)));
      expect(tops).toHaveLength(4);
      expect(new Set(tops).size).toBe(1);
      // …and the note stays inside the panel.
      const [panel, note] = await Promise.all([
        page.locator('.exchange').boundingBox(),
        side.locator('.note').boundingBox(),
      ]);
      expect(note!.x + note!.width).toBeLessThanOrEqual(panel!.x + panel!.width);
    }
    await page.screenshot({ path: join(ARTIFACTS, 'overlay-sidebar-long-note.png'), omitBackground: true });
  });

  it('a system the page does not know: the common parts and any rolled dice', async () => {
    const id = (await t.http.post('/fights').send(narateer()).expect(201)).body.fightId;
    const { token } = await spectator(id);
    const future = {
      fightId: id,
      system: 'starfall',
      name: 'Orbital duel',
      status: 'active',
      round: 3,
      initiative: ['b', 'a'],
      activeCombatantId: 'a',
      combatants: [
        { id: 'a', name: 'Vega', hp: 4, maxHp: 10, conditions: [{ name: 'Stunned', amount: 2 }, 'Burning'] },
        { id: 'b', name: 'Rigel', state: 'Down', hp: 0, maxHp: 9, shields: 3 },
      ],
    };
    const event = {
      type: 'DuelResolved',
      fightId: id,
      seq: 7,
      data: {
        attackerId: 'a',
        targetId: 'b',
        shot: { combatantId: 'a', roll: { sides: 10, faces: [9, 2] } },
        evade: { combatantId: 'b', faces: [5], total: 5 },
      },
    };
    await page.route(
      /\/fights\/[^/]+\/stream\?/,
      (route) =>
        new URL(route.request().url()).searchParams.get('after') === '0'
          ? route.fulfill({
              status: 200,
              contentType: 'text/event-stream',
              body: `id: 7\nevent: DuelResolved\ndata: ${JSON.stringify(event)}\n\n`,
            })
          : undefined, // later reconnects hang, as an idle stream does
    );
    await page.route(/\/fights\/[^/?]+\?/, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({ fightId: id, seq: 7, view: future }),
      }),
    );
    await page.goto(overlay(id, token));
    await page.locator('.exchange .die').nth(2).waitFor();
    expect(await page.locator('.head').textContent()).toMatch(/starfall · Orbital duel.*Round 3.*Turn: Vega/);
    expect(await texts(page, '.card .name')).toEqual(['Rigel', 'Vega']);
    expect(await texts(page, '.card .meter .val')).toEqual(['0 / 9', '4 / 10']);
    expect(await page.locator('.card[data-id="b"]').getAttribute('class')).toContain('out');
    expect(await texts(page, '.card[data-id="a"] .chip')).toEqual(['Stunned 2', 'Burning']);
    expect(await texts(page, '.exchange .die')).toEqual(['9', '2', '5']);
    expect(await texts(page, '.exchange .side .who')).toEqual(['Vega', 'Rigel']);
    expect(await page.locator('.exchange .xt').textContent()).toBe('Vega → Rigel · Duel');
  });

  // The integration conventions review: in every system and layout the page keeps its shape (panels inside the screen and
  // apart, each side's dice on one row however long its note) and its meter text reads at WCAG AA (4.5:1) in both themes,
  // computed from the colours Chromium applies. One screenshot each, for the record.
  describe('every system × layout × theme: geometry, WCAG AA meter text and a screenshot', () => {
    const archsoulSheet = {
      attributes: { precision: 2, athletics: 2, endurance: 2, soulpower: 1, intellect: 1 },
      skills: { awareness: 1, meleeWeapons: 2, rangedWeapons: 2, weaponMastery: 1, resolve: 1 },
      maxHp: 10,
      defense: 1,
      weapons: [{ id: 'sword', name: 'Sword', type: 'melee', damage: 2 }],
    };
    const stats = { brawn: 3, agility: 2, endurance: 2, spirit: 2, technique: 2 };
    const systems = {
      narateer: {
        create: narateer(),
        hurt: (c: any, i: number) => ({ ...c, vitality: [8, 3][i] }),
        event: (id: string) => ({
          type: 'ExchangeResolved',
          fightId: id,
          data: {
            attackerId: 'mira',
            targetId: 'orin',
            kind: 'melee',
            attacker: { combatantId: 'mira', faces: [6, 4, 3], total: 4 },
            responder: { combatantId: 'orin', faces: [4, 3], total: 2 },
            outcome: 'hit',
            winnerId: 'mira',
            hitMargin: 2,
          },
        }),
      },
      archsoul: {
        create: {
          system: 'archsoul',
          name: 'Skirmish',
          dice: { mode: 'manual' },
          combatants: [
            { id: 'kael', name: 'Kael of the Ashen Vale', side: 'heroes', sheet: archsoulSheet },
            { id: 'brute', name: 'Brute of the Iron Hills', side: 'enemies', sheet: archsoulSheet },
          ],
        },
        hurt: (c: any, i: number) => ({ ...c, hp: [9, 2][i] }),
        event: (id: string) => {
          const test = (faces: number[], successes: number, difficulty: number) => ({
            pool: faces.length,
            difficulty,
            removed: 0,
            roll: { faces },
            successes,
            criticalFailure: false,
            modifiers: [],
          });
          return {
            type: 'ExchangeResolved',
            fightId: id,
            data: {
              attackerId: 'kael',
              targetId: 'brute',
              weaponId: 'sword',
              attackType: 'melee',
              action: 'attack',
              attack: test([6, 5, 2, 1], 2, 4),
              defense: 1,
              soulDefence: test([4, 3, 1, 6], 1, 5),
              hit: true,
            },
          };
        },
      },
      'arcana-beast': {
        create: {
          system: 'arcana-beast',
          name: 'Ember and the Wolf',
          dice: { mode: 'manual' },
          combatants: [
            {
              id: 'ember',
              name: 'Ember',
              side: 'heroes',
              sheet: {
                kind: 'beast',
                stats,
                hp: 12,
                stamina: 2,
                stage: 2,
                stages: [{ stage: 0 }, { stage: 1 }, { stage: 2, name: 'Cinderhound' }],
                attacks: [{ id: 'claw', name: 'Claw', range: 'melee' }],
              },
            },
            {
              id: 'wolf',
              name: 'Wolf',
              side: 'wild',
              sheet: {
                kind: 'beast',
                stats: { ...stats, brawn: 2 },
                hp: 8,
                stamina: 1,
                stage: 1,
                stages: [{ stage: 1 }],
                attacks: [{ id: 'bite', name: 'Bite', range: 'melee' }],
              },
            },
          ],
        },
        hurt: (c: any, i: number) => ({ ...c, hp: [12, 2][i] }),
        event: (id: string) => ({
          type: 'AttackResolved',
          fightId: id,
          data: {
            attackerId: 'ember',
            targetId: 'wolf',
            attackName: 'Claw',
            attack: {
              combatantId: 'ember',
              roll: { faces: [6, 5, 5, 2] },
              successes: 3,
              dropped: { index: 3, face: 2 },
            },
            dodge: { combatantId: 'wolf', roll: { faces: [4, 1] }, successes: 1 },
            outcome: 'hit',
            critical: false,
            damage: 3,
          },
        }),
      },
    } as const;

    const boxes = async (selector: string) =>
      await page.locator(selector).evaluateAll((els) =>
        els.map((e) => {
          const r = e.getBoundingClientRect();
          return { x: r.x, y: r.y, w: r.width, h: r.height };
        }),
      );
    const overlaps = (a: { x: number; y: number; w: number; h: number }, b: typeof a) =>
      Math.min(a.x + a.w, b.x + b.w) - Math.max(a.x, b.x) > 0.5 &&
      Math.min(a.y + a.h, b.y + b.h) - Math.max(a.y, b.y) > 0.5;

    for (const [system, setup] of Object.entries(systems)) {
      it.each([
        ['bar', 'dark'],
        ['bar', 'light'],
        ['sidebar', 'dark'],
        ['sidebar', 'light'],
      ])(`${system}: layout=%s theme=%s`, async (layout, theme) => {
        const created = (await t.http.post('/fights').send(setup.create).expect(201)).body;
        const id = created.fightId as string;
        const { token } = await spectator(id);
        const real = (await t.http.get(`/fights/${id}?minSeq=${created.seq}`).expect(200)).body;
        // The real view of the system, a side hurt, and one resolved exchange on the stream.
        const view = {
          ...real.view,
          status: 'active',
          round: 2,
          combatants: real.view.combatants.map(setup.hurt),
        };
        const event = { ...setup.event(id), seq: real.seq + 1 };
        await page.route(/\/fights\/[^/]+\/stream\?/, (route) =>
          new URL(route.request().url()).searchParams.get('after') === '0'
            ? route.fulfill({
                status: 200,
                contentType: 'text/event-stream',
                body: `id: ${event.seq}\nevent: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`,
              })
            : undefined,
        );
        await page.route(/\/fights\/[^/?]+\?/, (route) =>
          route.fulfill({
            status: 200,
            contentType: 'application/json',
            body: JSON.stringify({ fightId: id, seq: event.seq, view }),
          }),
        );
        await page.emulateMedia({ reducedMotion: 'reduce' }); // the dice as they land, not mid-tumble
        await page.goto(overlay(id, token, `&layout=${layout}&theme=${theme}&scale=1`));
        await page.locator('.exchange .side').nth(1).locator('.die').first().waitFor();
        expect(await page.locator(`body.layout-${layout}.theme-${theme}`).count()).toBe(1);
        expect(await texts(page, '.card .name')).toEqual(
          view.combatants.map((c: { name: string }) => c.name),
        );

        // Every panel inside the screen, none over another.
        const panels = [...(await boxes('.head')), ...(await boxes('.card')), ...(await boxes('.exchange'))];
        expect(panels).toHaveLength(view.combatants.length + 2);
        for (const b of panels)
          expect(b.x >= 0 && b.y >= 0 && b.x + b.w <= 1920 && b.y + b.h <= 1080).toBe(true);
        for (let a = 0; a < panels.length; a++)
          for (let b = a + 1; b < panels.length; b++)
            expect([a, b, overlaps(panels[a], panels[b])]).toEqual([a, b, false]);

        // Each side's dice on one row; its note inside the panel.
        const exchange = (await page.locator('.exchange').boundingBox())!;
        for (const side of await page.locator('.exchange .side').all()) {
          const tops = await side
            .locator('.die')
            .evaluateAll((dice) => dice.map((d) => Math.round(d.getBoundingClientRect().top)));
          expect(tops.length).toBeGreaterThan(1);
          expect(new Set(tops).size).toBe(1);
          const note = await side.locator('.note').boundingBox();
          if (note) expect(note.x + note.width).toBeLessThanOrEqual(exchange.x + exchange.width + 0.5);
        }

        // The meter's label and value against its track and every fill colour, as Chromium computes them.
        const colours = await page.evaluate<
          Array<{ value: string; label: string; track: string; fills: Record<string, string> }>
        >(`(() => [...document.querySelectorAll('.card .meter')].map((meter) => {
          const fill = meter.querySelector('.fill');
          const keep = fill.getAttribute('data-level');
          fill.style.transition = 'none';
          const out = { value: getComputedStyle(meter.querySelector('.val')).color, label: getComputedStyle(meter.querySelector('.lbl')).color, track: getComputedStyle(meter).backgroundColor, fills: {} };
          for (const level of ['ok', 'low', 'crit']) {
            if (level === 'ok') fill.removeAttribute('data-level'); else fill.setAttribute('data-level', level);
            out.fills[level] = getComputedStyle(fill).backgroundColor;
          }
          if (keep === null) fill.removeAttribute('data-level'); else fill.setAttribute('data-level', keep);
          fill.style.transition = '';
          return out;
        }))()`);
        expect(colours).toHaveLength(view.combatants.length);
        for (const c of colours) {
          for (const [where, bg] of [['track', c.track], ...Object.entries(c.fills)]) {
            const ratio = Math.min(contrast(c.value, bg), contrast(c.label, bg));
            expect([
              theme,
              where,
              Math.round(ratio * 100) / 100 >= 4.5 ? 'AA' : `${ratio.toFixed(2)}:1`,
            ]).toEqual([theme, where, 'AA']);
          }
        }
        await page.screenshot({
          path: join(ARTIFACTS, `overlay-${system}-${layout}-${theme}.png`),
          omitBackground: true,
        });
      });
    }
  });
});

describeInBrowser('overlay page across a server restart', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'crs-overlay-'));
  let browser: Awaited<ReturnType<typeof launch>>;
  beforeAll(async () => {
    // startServer runs dist/: make sure that build has the overlay in it.
    if (!existsSync(join(__dirname, '../dist/apps/api/src/overlay/overlay.module.js')))
      execSync('npx nest build api', { cwd: join(__dirname, '..'), stdio: 'inherit' });
    browser = await launch();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    removeDir(dataDir);
  });

  // SIGKILL: the stream breaks (a read error). SIGTERM: the server ends it cleanly (`event: shutdown`, then the end of the response).
  it.each(['SIGKILL', 'SIGTERM'] as const)(
    'after %s, reconnects on its own and resumes after its last event',
    async (signal) => {
      let server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn' });
      const port = new URL(server.url).port;
      try {
        const key = await tenantKey(server.url);
        const call = async (method: string, path: string, body?: unknown): Promise<any> => {
          const res = await fetch(`${server.url}${path}`, {
            method,
            headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
            body: body === undefined ? undefined : JSON.stringify(body),
          });
          if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
          return res.json();
        };
        const { fightId } = await call('POST', '/fights', narateer());
        let committed = 0;
        for (const cmd of opening.slice(0, 2))
          committed = (await call('POST', `/fights/${fightId}/commands`, cmd)).seq;
        const { token } = await call('POST', `/fights/${fightId}/tokens`, { role: 'spectator' });
        // The view as of the last command at least: a GET reads the projection, which may not have folded it yet.
        const { seq } = await call('GET', `/fights/${fightId}?minSeq=${committed}`);

        const page = await browser.context.newPage();
        const streams: string[] = [];
        page.on('request', (r) => r.url().includes('/stream?') && streams.push(r.url()));
        await page.goto(`${server.url}/overlay/${fightId}?token=${encodeURIComponent(token)}`);
        await page.locator('.card').nth(1).waitFor();
        expect(await page.locator('.card.active').count()).toBe(0);
        await page.locator('.status').waitFor({ state: 'hidden' });

        const beforeKill = streams.length;
        await kill(server.proc, signal);
        await page.locator('.status', { hasText: 'Reconnecting' }).waitFor({ timeout: 5000 });
        server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'warn', PORT: port });
        await page.locator('.status').waitFor({ state: 'hidden', timeout: 10_000 });

        await call('POST', `/fights/${fightId}/commands`, opening[2]);
        await page.locator('.card.active .name', { hasText: 'Mira' }).waitFor({ timeout: 2000 });
        // Resumed after the last event it had, not from the start: the first request after the kill
        // asks for what follows `seq`, and no later one (a further reconnect) goes back before it.
        const after = (url: string) => Number(new URL(url).searchParams.get('after'));
        expect(after(streams[0])).toBe(0);
        const resumed = streams.slice(beforeKill).map(after);
        expect(resumed[0]).toBe(seq);
        expect(resumed.filter((a) => a < seq)).toEqual([]);
        await page.close();
      } finally {
        await kill(server.proc, 'SIGTERM');
      }
    },
    60_000,
  );
});
