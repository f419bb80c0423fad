import { sheet, type TestApp } from './app';

/** A fight over REST as its table plays it: the GM's commands (the tenant key), player tokens, a player's commands. */
export function tableOf(t: TestApp, fightId: string) {
  const gm = async (cmd: Record<string, unknown>, status = 200) =>
    (await t.http.post(`/fights/${fightId}/commands`).send(cmd).expect(status)).body;
  const token = async (combatantId: string) =>
    (
      await t.http
        .post(`/fights/${fightId}/tokens`)
        .send({ role: 'player', combatantIds: [combatantId] })
        .expect(201)
    ).body.token as string;
  const as =
    (tok: string) =>
    async (cmd: Record<string, unknown>, status = 200) =>
      (
        await t.anon
          .post(`/fights/${fightId}/commands`)
          .set('authorization', `Bearer ${tok}`)
          .send(cmd)
          .expect(status)
      ).body;
  return { gm, token, as };
}

type Cmd = Record<string, unknown>;
const COMMAND = `mutation($f: ID!, $i: CommandInputGql!) { command(fightId: $f, input: $i) { seq events { type data } view } }`;

/** A new fight over REST: `send` expects 200 and returns the decision, `refuse` expects 422 and returns the refusal. */
export async function overRest(t: TestApp, setup: object) {
  const fightId = (await t.http.post('/fights').send(setup).expect(201)).body.fightId as string;
  const url = `/fights/${fightId}/commands`;
  const send = async (cmd: Cmd) =>
    (await t.http.post(url).send(cmd).expect(200)).body as {
      events: { type: string; data: any }[];
      view: any;
    };
  const refuse = async (cmd: Cmd) =>
    (await t.http.post(url).send(cmd).expect(422)).body as { code: string; field?: string };
  return { fightId, send, refuse };
}

/** A new fight over GraphQL: `send` expects no errors and returns the decision, `refuse` returns the first error's extensions. */
export async function overGraphql(t: TestApp, setup: object) {
  const created = await t.gql(`mutation($i: CreateFightInput!) { createFight(input: $i) { fightId } }`, {
    i: setup,
  });
  const fightId = created.data.createFight.fightId as string;
  const send = async ({ type, ...payload }: Cmd) => {
    const res = await t.gql(COMMAND, { f: fightId, i: { type, payload } });
    expect(res.errors).toBeUndefined();
    return res.data.command;
  };
  const refuse = async ({ type, ...payload }: Cmd) => {
    const res = await t.gql(COMMAND, { f: fightId, i: { type, payload } });
    return res.errors?.[0]?.extensions as { code: string; field?: string };
  };
  return { fightId, send, refuse };
}

/** The smallest fight: Narateer with manual dice and one combatant, A. Returns its id. */
export async function soloFight(t: TestApp): Promise<string> {
  return (
    await t.http
      .post('/fights')
      .send({
        system: 'narateer',
        dice: { mode: 'manual' },
        combatants: [{ id: 'a', name: 'A', sheet: sheet() }],
      })
      .expect(201)
  ).body.fightId;
}

/** Mira (support's sheet(3)) against Orin (sheet(1)), manual dice. Returns the fight's id. */
export async function duelFight(t: TestApp): Promise<string> {
  return (
    await t.http
      .post('/fights')
      .send({
        system: 'narateer',
        dice: { mode: 'manual' },
        combatants: [
          { id: 'mira', name: 'Mira', sheet: sheet(3) },
          { id: 'orin', name: 'Orin', sheet: sheet(1) },
        ],
      })
      .expect(201)
  ).body.fightId;
}
