import { removeDir, startApp, type TestApp } from './support/app';
import { onEveryEngine } from './support/engines';
import { duelFight } from './support/fight-calls';

const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

const ISSUE = `mutation Issue($f: ID!, $i: IssueFightTokenInput!) {
  issueFightToken(fightId: $f, input: $i) { tokenId token role combatantIds expiresAt }
}`;
const LIST = `query List($f: ID!, $limit: Int, $cursor: String) {
  fightTokens(fightId: $f, limit: $limit, cursor: $cursor) {
    items { tokenId fightId role combatantIds label createdAt expiresAt revokedAt } limit nextCursor
  }
}`;
const ONE = `query One($f: ID!, $t: ID!) {
  fightToken(fightId: $f, tokenId: $t) { tokenId fightId role combatantIds label createdAt expiresAt revokedAt }
}`;
const REVOKE = `mutation Revoke($f: ID!, $t: ID!) { revokeFightToken(fightId: $f, tokenId: $t) }`;
const COMMAND = `mutation Send($f: ID!, $i: CommandInputGql!) {
  command(fightId: $f, input: $i) { seq events { type actor } }
}`;
const FIGHT = `query Fight($f: ID!) { fight(fightId: $f) { seq } }`;

/** A DeclareExchange for Orin: a command Mira's player does not act for. */
const orinAttacks = { attackerId: 'orin', targetId: 'mira', kind: 'melee', weaponId: 'x', boost: 0 };

/**
 * README "Who may do what": the GM issues, lists, reads and revokes a fight's player and spectator tokens
 * over GraphQL as over REST (POST, GET and DELETE /fights/:id/tokens), so a client that speaks only
 * GraphQL can invite its table. The same rule (the fight's GM only), the same refusals, one cursor.
 */
function tokensSuite(
  engine: string,
  opts: Parameters<typeof startApp>[0],
  cleanup: () => Promise<void> = async () => undefined,
) {
  describe(`fight tokens over GraphQL (${engine})`, () => {
    let t: TestApp;
    let fightId = '';
    const gm = (cmd: Record<string, unknown>) =>
      t.http.post(`/fights/${fightId}/commands`).send(cmd).expect(200);
    const restTokens = async () =>
      (await t.http.get(`/fights/${fightId}/tokens`).expect(200)).body as Array<{ tokenId: string }>;
    const issue = async (input: Record<string, unknown>, key?: string) =>
      t.gql(ISSUE, { f: fightId, i: input }, key);

    beforeAll(async () => {
      t = await startApp(opts);
      fightId = await duelFight(t);
      await gm({ type: 'SetInitiative', order: ['mira', 'orin'] });
      await gm({ type: 'StartRound' });
      await gm({ type: 'StartActivation' });
    });
    afterAll(async () => {
      await t.close();
      removeDir(t.dataDir);
      await cleanup();
    });

    it('given a player token issued over GraphQL, then it acts for its combatant over GraphQL and REST, and is refused for another on both', async () => {
      const issued = await issue({ role: 'player', combatantIds: ['mira'], label: 'Alice (Mira)' });
      expect(issued.errors).toBeUndefined();
      const mira = issued.data.issueFightToken;
      expect(mira).toEqual({
        tokenId: expect.stringMatching(/\S/),
        token: expect.stringMatching(/^crt_/),
        role: 'player',
        combatantIds: ['mira'],
        expiresAt: null,
      });
      // What REST shows of it is what was asked for, never the secret.
      const shown = (await t.http.get(`/fights/${fightId}/tokens/${mira.tokenId}`).expect(200)).body;
      expect(shown).toMatchObject({ tokenId: mira.tokenId, fightId, role: 'player', label: 'Alice (Mira)' });
      expect(JSON.stringify(shown)).not.toContain(mira.token);

      const notMine = await t.gql(
        COMMAND,
        { f: fightId, i: { type: 'DeclareExchange', payload: orinAttacks } },
        mira.token,
      );
      expect(notMine.errors?.[0].extensions).toMatchObject({
        statusCode: 403,
        code: 'NOT_YOUR_COMBATANT',
        field: 'attackerId',
      });
      const restNotMine = await t.anon
        .post(`/fights/${fightId}/commands`)
        .set(bearer(mira.token))
        .send({ type: 'DeclareExchange', ...orinAttacks })
        .expect(403);
      expect(restNotMine.body).toMatchObject({ code: 'NOT_YOUR_COMBATANT', field: 'attackerId' });

      const ended = await t.gql(COMMAND, { f: fightId, i: { type: 'EndActivation' } }, mira.token);
      expect(ended.errors).toBeUndefined();
      expect(ended.data.command.events[0].actor).toBe(`player:${mira.tokenId}`);

      // Orin's activation: Mira's player may not end it over REST; Orin's, issued over GraphQL, may.
      await gm({ type: 'StartActivation' });
      const refused = await t.anon
        .post(`/fights/${fightId}/commands`)
        .set(bearer(mira.token))
        .send({ type: 'EndActivation' })
        .expect(403);
      expect(refused.body.code).toBe('NOT_YOUR_COMBATANT');
      const orin = (await issue({ role: 'player', combatantIds: ['orin'] })).data.issueFightToken;
      const orinEnded = await t.anon
        .post(`/fights/${fightId}/commands`)
        .set(bearer(orin.token))
        .send({ type: 'EndActivation' })
        .expect(200);
      expect(orinEnded.body.events[0].actor).toBe(`player:${orin.tokenId}`);
    });

    it('given a spectator token issued over GraphQL, then it reads over both and sends nothing', async () => {
      const issued = await issue({ role: 'spectator', expiresAt: '2999-12-31T23:00:00Z' });
      expect(issued.errors).toBeUndefined();
      const spectator = issued.data.issueFightToken;
      expect(spectator).toMatchObject({
        role: 'spectator',
        combatantIds: [],
        expiresAt: '2999-12-31T23:00:00Z',
      });
      await t.anon.get(`/fights/${fightId}`).set(bearer(spectator.token)).expect(200);
      expect((await t.gql(FIGHT, { f: fightId }, spectator.token)).data.fight.seq).toBeGreaterThan(0);
      const sent = await t.gql(
        COMMAND,
        { f: fightId, i: { type: 'AddNote', payload: { text: 'x' } } },
        spectator.token,
      );
      expect(sent.errors?.[0].extensions).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    });

    it('given more tokens than a page, then fightTokens and REST page through the same list with one cursor, each taking the other’s', async () => {
      for (let i = 0; i < 4; i++)
        expect((await issue({ role: 'spectator', label: `s${i}` })).errors).toBeUndefined();
      const whole = (await restTokens()).map((x) => x.tokenId);
      expect(whole.length).toBeGreaterThanOrEqual(6);

      const seen: string[] = [];
      let cursor: string | undefined;
      let overGraphql = true;
      let pages = 0;
      do {
        if (overGraphql) {
          const res = await t.gql(LIST, { f: fightId, limit: 2, cursor });
          expect(res.errors).toBeUndefined();
          const page = res.data.fightTokens;
          expect(page.limit).toBe(2);
          seen.push(...page.items.map((x: { tokenId: string }) => x.tokenId));
          cursor = page.nextCursor ?? undefined;
        } else {
          const res = await t.http
            .get(`/fights/${fightId}/tokens`)
            .query({ limit: 2, ...(cursor ? { cursor } : {}) })
            .expect(200);
          seen.push(...(res.body as Array<{ tokenId: string }>).map((x) => x.tokenId));
          cursor = res.headers['x-next-cursor'];
        }
        overGraphql = !overGraphql;
        pages++;
      } while (cursor);
      expect(seen).toEqual(whole);
      expect(pages).toBe(Math.ceil(whole.length / 2));

      // The items are REST's, field for field.
      const all = (await t.gql(LIST, { f: fightId })).data.fightTokens;
      expect(all).toMatchObject({ limit: 1000, nextCursor: null });
      expect(all.items).toEqual((await t.http.get(`/fights/${fightId}/tokens`).expect(200)).body);
    });

    it('given a cursor of another fight’s tokens, a made-up one or a limit out of range, then GraphQL refuses it as REST does', async () => {
      const other = await duelFight(t);
      for (let i = 0; i < 2; i++)
        await t.http.post(`/fights/${other}/tokens`).send({ role: 'spectator' }).expect(201);
      const foreign = (await t.http.get(`/fights/${other}/tokens?limit=1`).expect(200)).headers[
        'x-next-cursor'
      ];
      expect(foreign).toEqual(expect.any(String));
      for (const [query, args] of [
        [`cursor=${foreign}`, { cursor: foreign }],
        ['cursor=bm9wZQ', { cursor: 'bm9wZQ' }],
        ['limit=0', { limit: 0 }],
        ['limit=1001', { limit: 1001 }],
      ] as const) {
        const rest = (await t.http.get(`/fights/${fightId}/tokens?${query}`).expect(400)).body;
        const gql = await t.gql(LIST, { f: fightId, ...args });
        expect([query, gql.errors?.[0].extensions]).toEqual([
          query,
          expect.objectContaining({
            statusCode: 400,
            code: rest.code,
            field: rest.field,
            message: rest.message,
          }),
        ]);
        expect(gql.data).toBeNull();
      }
    });

    it('given fightToken, then it answers what GET /fights/:id/tokens/:tokenId answers; an unknown one is TOKEN_NOT_FOUND on both', async () => {
      const [first] = await restTokens();
      const one = await t.gql(ONE, { f: fightId, t: first.tokenId });
      expect(one.data.fightToken).toEqual(
        (await t.http.get(`/fights/${fightId}/tokens/${first.tokenId}`).expect(200)).body,
      );
      const rest = (await t.http.get(`/fights/${fightId}/tokens/tok_none`).expect(404)).body;
      expect(rest).toMatchObject({ code: 'TOKEN_NOT_FOUND', field: 'tokenId' });
      const missing = await t.gql(ONE, { f: fightId, t: 'tok_none' });
      expect(missing.errors?.[0].extensions).toMatchObject({
        statusCode: 404,
        code: rest.code,
        field: rest.field,
      });
      expect(missing.data).toBeNull();
    });

    it('given revokeFightToken, then the token is refused at once over both, the revocation shows, and revoking again answers as DELETE does', async () => {
      const player = (await issue({ role: 'player', combatantIds: ['mira'] })).data.issueFightToken;
      await t.anon.get(`/fights/${fightId}`).set(bearer(player.token)).expect(200);
      const revoked = await t.gql(REVOKE, { f: fightId, t: player.tokenId });
      expect(revoked).toEqual({ data: { revokeFightToken: true } });

      expect((await t.anon.get(`/fights/${fightId}`).set(bearer(player.token)).expect(401)).body.code).toBe(
        'INVALID_CREDENTIALS',
      );
      const refused = await t.gql(FIGHT, { f: fightId }, player.token);
      expect(refused.errors?.[0].extensions).toMatchObject({ statusCode: 401, code: 'INVALID_CREDENTIALS' });
      expect((await t.gql(ONE, { f: fightId, t: player.tokenId })).data.fightToken.revokedAt).toEqual(
        expect.any(String),
      );

      // Already revoked: REST's DELETE is 204 again, GraphQL true again; nothing else changes.
      await t.http.delete(`/fights/${fightId}/tokens/${player.tokenId}`).expect(204);
      expect(await t.gql(REVOKE, { f: fightId, t: player.tokenId })).toEqual({
        data: { revokeFightToken: true },
      });

      const rest = (await t.http.delete(`/fights/${fightId}/tokens/tok_none`).expect(404)).body;
      const missing = await t.gql(REVOKE, { f: fightId, t: 'tok_none' });
      expect(missing.errors?.[0].extensions).toMatchObject({
        statusCode: 404,
        code: rest.code,
        field: rest.field,
      });
    });

    it('given each bad input, then issueFightToken refuses it with REST’s status, code, field and message, and issues nothing', async () => {
      const cases: Array<[string, Record<string, unknown>]> = [
        ['a player token without combatantIds', { role: 'player' }],
        ['a player token with no combatant', { role: 'player', combatantIds: [] }],
        ['a spectator token naming a combatant', { role: 'spectator', combatantIds: ['mira'] }],
        ['expiresAt in the past', { role: 'spectator', expiresAt: '2001-01-01T00:00:00Z' }],
        ['expiresAt not a date-time', { role: 'spectator', expiresAt: 'tomorrow' }],
        ['an unknown combatant', { role: 'player', combatantIds: ['mira', 'nobody'] }],
        ['a combatant named twice', { role: 'player', combatantIds: ['mira', 'mira'] }],
        ['a combatant id too long', { role: 'player', combatantIds: ['m'.repeat(65)] }],
        [
          'more than 50 combatants',
          { role: 'player', combatantIds: Array.from({ length: 51 }, (_, i) => `c${i}`) },
        ],
        ['a label too long', { role: 'spectator', label: 'x'.repeat(101) }],
        ['an empty label', { role: 'spectator', label: '' }],
        ['a null label', { role: 'spectator', label: null }],
        ['an unknown role', { role: 'gm' }],
      ];
      const before = await restTokens();
      for (const [what, input] of cases) {
        const rest = await t.http.post(`/fights/${fightId}/tokens`).send(input);
        expect([what, rest.status]).toEqual([what, 422]);
        const gql = await issue(input);
        expect([what, gql.errors?.[0].extensions]).toEqual([
          what,
          expect.objectContaining({
            statusCode: rest.status,
            code: rest.body.code,
            field: rest.body.field,
            message: rest.body.message,
            ...(rest.body.issues ? { issues: rest.body.issues } : {}),
          }),
        ]);
        expect([what, gql.data]).toEqual([what, null]);
      }
      expect(await restTokens()).toEqual(before);
    });

    it('given a player or spectator token of the fight, then it may not issue, list, read or revoke tokens (403, as REST); another tenant is told the fight does not exist', async () => {
      const player = (await issue({ role: 'player', combatantIds: ['mira'] })).data.issueFightToken;
      const spectator = (await issue({ role: 'spectator' })).data.issueFightToken;
      const other = await t.tenant('Other table');
      const before = await restTokens();
      const target = before[0].tokenId;
      for (const [who, key, status, code] of [
        ['player', player.token, 403, 'FORBIDDEN'],
        ['spectator', spectator.token, 403, 'FORBIDDEN'],
        ['another tenant', other.apiKey, 404, 'FIGHT_NOT_FOUND'],
      ] as const) {
        const rest = await t.anon
          .post(`/fights/${fightId}/tokens`)
          .set(bearer(key))
          .send({ role: 'spectator' })
          .expect(status);
        expect([who, rest.body.code]).toEqual([who, code]);
        const answers = [
          await issue({ role: 'spectator' }, key),
          await t.gql(LIST, { f: fightId }, key),
          await t.gql(ONE, { f: fightId, t: target }, key),
          await t.gql(REVOKE, { f: fightId, t: target }, key),
        ];
        for (const answer of answers) {
          expect([who, answer.errors?.[0].extensions]).toEqual([
            who,
            expect.objectContaining({ statusCode: status, code, field: rest.body.field }),
          ]);
          expect(answer.data).toBeNull();
        }
      }
      expect(await restTokens()).toEqual(before);
      expect((await t.gql(ONE, { f: fightId, t: target })).data.fightToken.revokedAt).toBeNull();
    });
  });
}

onEveryEngine(tokensSuite, {
  prefix: 'gql_tokens',
  what: 'GraphQL fight tokens',
  title: 'fight tokens over GraphQL',
});
