import {
  buildClientSchema,
  getIntrospectionQuery,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isObjectType,
  isUnionType,
} from 'graphql';
import request from 'supertest';
import { useApp } from './support/app';
import { mira, orinUnranged } from './support/narateer-sheets';
import { base, sword } from './support/archsoul-sheets';

/** The contract in GraphQL: typed command mutations per system (a @oneOf input) and typed event data. */
describe('GraphQL: typed commands and events', () => {
  const t = useApp();
  const send = `mutation Send($fightId: ID!, $command: NarateerCommandInput!) { narateerCommand(fightId: $fightId, command: $command) { seq events { seq type detail { __typename } } } }`;
  let fightId = '';

  beforeAll(async () => {
    const created = await t.http
      .post('/fights')
      .send({
        system: 'narateer',
        dice: { mode: 'manual' },
        combatants: [
          { id: 'mira', name: 'Mira', side: 'ford', sheet: mira },
          { id: 'orin', name: 'Orin', side: 'bandits', sheet: orinUnranged },
        ],
      })
      .expect(201);
    fightId = created.body.fightId;
  });

  it('the schema loads from standard introspection, with a @oneOf command input per system', async () => {
    const res = await t.gql(
      getIntrospectionQuery({
        oneOf: true,
        inputValueDeprecation: true,
        specifiedByUrl: true,
        directiveIsRepeatable: true,
      }),
    );
    expect(res.errors).toBeUndefined();
    const schema = buildClientSchema(res.data);
    for (const name of ['NarateerCommandInput', 'ArcanaBeastCommandInput', 'ArchsoulCommandInput']) {
      const input = schema.getType(name);
      expect(isInputObjectType(input) && input.isOneOf).toBe(true);
    }
    const declare = schema.getType('NarateerDeclareExchangeInput');
    expect(isInputObjectType(declare) && Object.keys(declare.getFields())).toEqual(
      expect.arrayContaining(['attackerId', 'targetId', 'weaponId', 'boost', 'dice']),
    );
    const detail = schema.getType('FightEventDetail');
    expect(isUnionType(detail) && detail.getTypes().map((x) => x.name)).toEqual(
      expect.arrayContaining(['RoundStartedData', 'CombatantJoinedData', 'GmNoteAddedData']),
    );
    expect(Object.keys(schema.getMutationType()!.getFields())).toEqual(
      expect.arrayContaining(['narateerCommand', 'arcanaBeastCommand', 'archsoulCommand']),
    );
  });

  it('closed sets the API gives out are enums with their values described, the same values REST lists', async () => {
    const res = await t.gql(getIntrospectionQuery());
    const schema = buildClientSchema(res.data);
    const fieldEnum = (type: string, field: string) => {
      const object = schema.getType(type);
      if (!isObjectType(object)) throw new Error(`${type} is not an object type`);
      const named = getNamedType(object.getFields()[field].type);
      if (!isEnumType(named)) throw new Error(`${type}.${field} is ${named.name}, not an enum`);
      return named;
    };
    for (const [type, field, values] of [
      ['FightSummaryModel', 'status', ['setup', 'active', 'ended']],
      ['FightToken', 'role', ['player', 'spectator']],
      ['IssuedFightToken', 'role', ['player', 'spectator']],
      ['LabRunModel', 'status', ['running', 'done', 'failed']],
    ] as const) {
      const enumType = fieldEnum(type, field);
      expect(enumType.getValues().map((v) => v.name)).toEqual([...values].sort());
      expect(enumType.getValues().every((v) => v.description)).toBe(true);
    }
    // The lifecycle events are one type for every system: a pending decision they record is of any system's kinds.
    for (const [type, field] of [
      ['PendingCancelledData', 'kind'],
      ['DiceRequestedDataPrevious', 'kind'],
      ['DiceRequestCancelledData', 'restored'],
    ] as const)
      expect(
        fieldEnum(type, field)
          .getValues()
          .map((v) => v.name),
      ).toEqual(
        expect.arrayContaining(['dice', 'initiativeTie', 'exchangeResponse', 'intercept', 'reactiveAttack']),
      );
    expect(
      fieldEnum('NarateerViewPending', 'kind')
        .getValues()
        .map((v) => v.name),
    ).not.toContain('intercept');
    const fights = await t.gql('{ fights { items { fightId status } } }');
    expect(fights.errors).toBeUndefined();
    expect(fights.data.fights.items).toContainEqual({ fightId, status: 'setup' });
  });

  it('plays the worked example through narateerCommand; every event’s data comes back typed', async () => {
    for (const command of [
      { rollInitiative: { dice: [6, 4, 2, 3, 1] } },
      { startRound: {} },
      { startActivation: {} },
    ]) {
      const res = await t.gql(send, { fightId, command });
      expect(res.errors).toBeUndefined();
    }
    const declared = await t.gql(send, {
      fightId,
      command: {
        declareExchange: { attackerId: 'mira', targetId: 'orin', kind: 'melee', weaponId: 'sword', boost: 2 },
      },
    });
    expect(declared.errors).toBeUndefined();
    const answered = await t.gql(
      `mutation Send($fightId: ID!, $command: NarateerCommandInput!) { narateerCommand(fightId: $fightId, command: $command) { seq events { type data detail { __typename ... on RoundStartedData { round } } } } }`,
      {
        fightId,
        command: {
          respondToExchange: {
            combatantId: 'orin',
            response: 'clash',
            boost: 1,
            weaponId: 'mace',
            dice: [6, 4, 3, 4, 3],
          },
        },
      },
    );
    expect(answered.errors).toBeUndefined();
    const events = answered.data.narateerCommand.events as Array<{
      type: string;
      detail: { __typename: string } | null;
    }>;
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['ExchangeResolved', 'WoundsApplied']));
    for (const e of events) expect(e.detail?.__typename).toMatch(new RegExp(`^(Narateer)?${e.type}Data$`));
    // The view is the fight-views projection's: read it once it has the answer's events.
    const view = (
      await t.http.get(`/fights/${fightId}?minSeq=${answered.data.narateerCommand.seq}`).expect(200)
    ).body.view;
    expect(view.combatants.find((c: { id: string }) => c.id === 'orin').vitality).toBe(5);

    const round = await t.gql(
      `query($id: ID!) { events(fightId: $id) { type detail { ... on RoundStartedData { round } } } }`,
      { id: fightId },
    );
    expect(round.data.events.find((e: { type: string }) => e.type === 'RoundStarted').detail).toEqual({
      round: 1,
    });
  });

  it('a typo’d field or a second command type is refused before anything is decided', async () => {
    const before = (await t.http.get(`/fights/${fightId}/events`).expect(200)).body.length;
    const typo = await t.gql(send, { fightId, command: { addNote: { text: 'x', txet: 'y' } } });
    expect(typo.errors?.[0].message).toMatch(/txet/);
    const two = await t.gql(send, { fightId, command: { addNote: { text: 'x' }, startRound: {} } });
    expect(two.errors?.[0].message).toMatch(/exactly one/i);
    const wrongType = await t.gql(send, {
      fightId,
      command: {
        declareExchange: {
          attackerId: 'mira',
          targetId: 'orin',
          kind: 'melee',
          weaponId: 'sword',
          boost: '2',
        },
      },
    });
    expect(wrongType.errors?.[0].message).toMatch(/boost/);
    expect((await t.http.get(`/fights/${fightId}/events`).expect(200)).body.length).toBe(before);
  });

  it('the rules still answer through the typed mutation, with the one error shape', async () => {
    const res = await t.gql(send, {
      fightId,
      command: { addNote: { text: 'about someone', combatantId: 'nobody' } },
    });
    expect(res.errors?.[0].extensions).toMatchObject({ code: 'COMBATANT_NOT_FOUND', field: 'combatantId' });
  });
});

describe('GraphQL: a command reaches only a fight of its system, with only its own fields', () => {
  const t = useApp();
  let fightId = '';
  const eventCount = async () => (await t.http.get(`/fights/${fightId}/events`).expect(200)).body.length;

  beforeAll(async () => {
    fightId = (await t.http.post('/fights').send({ system: 'narateer', combatants: [] }).expect(201)).body
      .fightId;
  });

  it('given a Narateer fight, when arcanaBeastCommand or archsoulCommand is sent to it, then 422 WRONG_SYSTEM naming fightId, and nothing is appended', async () => {
    const before = await eventCount();
    for (const mutation of ['arcanaBeastCommand', 'archsoulCommand']) {
      const input = mutation === 'arcanaBeastCommand' ? 'ArcanaBeastCommandInput' : 'ArchsoulCommandInput';
      const res = await t.gql(
        `mutation Send($fightId: ID!, $command: ${input}!) { ${mutation}(fightId: $fightId, command: $command) { seq } }`,
        { fightId, command: { addNote: { text: 'x' } } },
      );
      expect(res.errors?.[0].extensions).toMatchObject({
        statusCode: 422,
        code: 'WRONG_SYSTEM',
        field: 'fightId',
      });
    }
    expect(await eventCount()).toBe(before);
    // Its own system's mutation still works.
    const own = await t.gql(
      `mutation Send($fightId: ID!, $command: NarateerCommandInput!) { narateerCommand(fightId: $fightId, command: $command) { seq } }`,
      { fightId, command: { addNote: { text: 'x' } } },
    );
    expect(own.errors).toBeUndefined();
    expect(await eventCount()).toBe(before + 1);
  });

  it('given the generic command mutation, when payload holds commandId, expectedSeq or type, then 422 UNKNOWN_FIELD naming each, and nothing is appended', async () => {
    const before = await eventCount();
    const send = `mutation Send($fightId: ID!, $input: CommandInputGql!) { command(fightId: $fightId, input: $input) { seq } }`;
    for (const [extra, field] of [
      [{ commandId: 'c-1' }, 'payload.commandId'],
      [{ expectedSeq: 0 }, 'payload.expectedSeq'],
      [{ type: 'StartRound' }, 'payload.type'],
    ] as const) {
      const res = await t.gql(send, {
        fightId,
        input: { type: 'AddNote', payload: { text: 'x', ...extra } },
      });
      expect(res.errors?.[0].extensions).toMatchObject({ statusCode: 422, code: 'UNKNOWN_FIELD', field });
      expect(res.errors?.[0].extensions.issues).toEqual([
        expect.objectContaining({ field, code: 'UNKNOWN_FIELD' }),
      ]);
    }
    const all = await t.gql(send, {
      fightId,
      input: { type: 'AddNote', payload: { text: 'x', commandId: 'c', expectedSeq: 0 } },
    });
    expect(all.errors?.[0].extensions.issues.map((i: { field: string }) => i.field)).toEqual([
      'payload.commandId',
      'payload.expectedSeq',
    ]);
    expect(await eventCount()).toBe(before);
    // Beside payload they work: the same commandId twice appends once.
    for (let i = 0; i < 2; i++) {
      const res = await t.gql(send, {
        fightId,
        input: { type: 'AddNote', commandId: 'note-1', expectedSeq: before, payload: { text: 'x' } },
      });
      expect(res.errors).toBeUndefined();
    }
    expect(await eventCount()).toBe(before + 1);
  });
});

describe('GraphQL: strings no engine can store', () => {
  const t = useApp();

  it('a NUL or a lone surrogate written in the query is a 400 INVALID_STRING, as in a REST body; nothing is created', async () => {
    const before = (await t.http.get('/fights').expect(200)).body;
    // graphql-js refuses an escaped lone surrogate itself (a parse error); a NUL it reads: the rule refuses it.
    for (const [literal, code] of [
      ['a\\u0000b', 'INVALID_STRING'],
      ['\\u0000', 'INVALID_STRING'],
      ['x\\ud800y', 'GRAPHQL_PARSE_FAILED'],
    ]) {
      // As application/graphql-response+json a refused document is a 400 (as application/json a 200, per GraphQL over HTTP).
      const res = await request(t.app.getHttpServer())
        .post('/graphql')
        .set('authorization', `Bearer ${t.apiKey}`)
        .set('accept', 'application/graphql-response+json')
        .send({
          query: `mutation { createFight(input: { system: "narateer", name: "${literal}" }) { fightId } }`,
        });
      expect([literal, res.status]).toEqual([literal, 400]);
      expect(res.body.errors?.[0].extensions).toMatchObject({ code, statusCode: 400 });
      expect(res.body.data).toBeUndefined();
    }
    expect((await t.http.get('/fights').expect(200)).body).toEqual(before);
  });

  it('a NUL in a variable is a 400 INVALID_STRING naming the variable as BAD_USER_INPUT does, not by the body', async () => {
    const before = (await t.http.get('/fights').expect(200)).body;
    const res = await request(t.app.getHttpServer())
      .post('/graphql')
      .set('authorization', `Bearer ${t.apiKey}`)
      .send({
        query: 'mutation Create($input: CreateFightInput!) { createFight(input: $input) { fightId } }',
        variables: { input: { system: 'narateer', combatants: [{ id: 'a', name: 'x\u0000', sheet: {} }] } },
      });
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.body)).toContain('"code":"INVALID_STRING"');
    expect(JSON.stringify(res.body)).toContain('"field":"input.combatants[0].name"');
    expect((await t.http.get('/fights').expect(200)).body).toEqual(before);
  });

  it('given an Archsoul sheet whose armour and weapon carry a `type`, when addCombatant is sent through archsoulCommand, then the sheet arrives whole', async () => {
    const archsoul = await t.http
      .post('/fights')
      .send({ system: 'archsoul', dice: { mode: 'manual' } })
      .expect(201);
    const sheet = { ...base, armour: { type: 'plate', metal: true }, weapons: [{ ...sword, type: 'melee' }] };
    const res = await t.gql(
      `mutation Send($fightId: ID!, $command: ArchsoulCommandInput!) { archsoulCommand(fightId: $fightId, command: $command) { seq } }`,
      {
        fightId: archsoul.body.fightId,
        command: { addCombatant: { combatant: { id: 'kael', name: 'Kael', side: 'heroes', sheet } } },
      },
    );
    expect(res.errors).toBeUndefined();
    const events = (await t.http.get(`/fights/${archsoul.body.fightId}/events`).expect(200)).body as Array<{
      type: string;
      data: { sheet?: { armour?: unknown; weapons?: Array<{ type?: string }> } };
    }>;
    const joined = events.find((e) => e.type === 'CombatantJoined');
    expect(joined?.data.sheet?.armour).toMatchObject({ type: 'plate', metal: true });
    expect(joined?.data.sheet?.weapons?.[0].type).toBe('melee');
  });

  it('given a field whose null means something (SetPosition position: null takes a combatant off the map), then narateerCommand takes null as REST does; leaving the field out is refused as over REST', async () => {
    const map = `mutation Send($fightId: ID!, $command: NarateerCommandInput!) { narateerCommand(fightId: $fightId, command: $command) { view } }`;
    const fightId = (
      await t.http
        .post('/fights')
        .send({ system: 'narateer', combatants: [{ id: 'orin', name: 'Orin', sheet: orinUnranged }] })
        .expect(201)
    ).body.fightId as string;
    const placed = await t.gql(map, {
      fightId,
      command: { setPosition: { combatantId: 'orin', position: { x: 2, y: 3 } } },
    });
    expect(placed.errors).toBeUndefined();
    const taken = await t.gql(map, {
      fightId,
      command: { setPosition: { combatantId: 'orin', position: null } },
    });
    expect(taken.errors).toBeUndefined();
    const orin = (
      taken.data.narateerCommand.view.combatants as Array<{ id: string; position?: unknown }>
    ).find((c) => c.id === 'orin');
    expect(orin?.position ?? null).toBeNull();
    const omitted = await t.gql(map, { fightId, command: { setPosition: { combatantId: 'orin' } } });
    expect(omitted.errors?.[0].extensions).toMatchObject({ statusCode: 422, field: 'position' });
  });
});
