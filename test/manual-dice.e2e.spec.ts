import fc from 'fast-check';
import { verifyFightLog } from '@app/audit';
import { InMemoryEventStore } from '@app/event-store';
import { CommandInput, CreateFightInput, FightService } from '@app/fights';
import {
  DiceSource,
  DrawKind,
  FightCore,
  findSystem,
  MANUAL_FIELDS,
  ManualFaces,
  ManualField,
  Roll,
  RuleCommand,
  RuleEvent,
  RuleViolation,
} from '@app/rules';
import { useApp } from './support/app';
import { loneWolf } from './support/arcana-beast-sheets';
import { base as aBase, bow as bowA, sword as swordA } from './support/archsoul-sheets';
import { bow as bowN, mira, opening, orin, swing, sword } from './support/narateer-sheets';

/**
 * C6, C13 over the service: a face is for exactly the roll it is given for. Exactly the
 * faces a command rolls decide it; one fewer is asked for (or refused, in the command's own first pool); one more is
 * refused at once, naming the field, with nothing appended.
 */

const narateer: CreateFightInput = {
  system: 'narateer',
  dice: { mode: 'manual' },
  combatants: [
    {
      id: 'mira',
      name: 'Mira',
      sheet: { ...mira, skills: { ...mira.skills, ranged: 2 }, weapons: [sword, bowN] },
    },
    { id: 'orin', name: 'Orin', sheet: orin },
  ],
};
const nOpening: CommandInput[] = opening;
const declare = (boost: number): CommandInput => swing('mira', boost);

const archsoul: CreateFightInput = {
  system: 'archsoul',
  dice: { mode: 'manual' },
  options: { arrowBreakage: false },
  combatants: [
    { id: 'ilsa', name: 'Ilsa', side: 'heroes', sheet: { ...aBase, weapons: [bowA, swordA] } },
    { id: 'brute', name: 'Brute', side: 'enemies', sheet: { ...aBase, weapons: [swordA] } },
    { id: 'scout', name: 'Scout', side: 'enemies', sheet: { ...aBase, weapons: [swordA] } },
  ],
};
/** Brute stands in Ilsa's face (reach and front arc); Scout three spaces off. */
const aOpening: CommandInput[] = [
  { type: 'SetMap', grid: 'hex' },
  { type: 'PlaceCombatant', combatantId: 'ilsa', position: { x: 0, y: 0 }, facing: 'N' },
  { type: 'PlaceCombatant', combatantId: 'brute', position: { x: 0, y: -1 }, facing: 'S' },
  { type: 'PlaceCombatant', combatantId: 'scout', position: { x: 2, y: -3 }, facing: 'S' },
  { type: 'SetInitiative', order: ['ilsa', 'brute', 'scout'] },
  { type: 'StartRound' },
];

/** The Brute well away: nothing reacts to Ilsa's shot at the Scout. */
const aApart: CommandInput[] = aOpening.map((c) =>
  c.combatantId === 'brute' ? { ...c, position: { x: -4, y: 2 } } : c,
);

const arcana = (options: Record<string, unknown> = {}): CreateFightInput => ({
  system: 'arcana-beast',
  dice: { mode: 'manual' },
  options,
  combatants: loneWolf,
});
const aClose: CommandInput[] = [
  { type: 'SetInitiative', order: ['ember', 'ash', 'wolf'] },
  { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'close' },
  { type: 'StartRound' },
  { type: 'StartActivation' },
];

describe('RULINGS.md C6, docs/rulings.md C13 through REST: faces for no roll are refused when first sent', () => {
  const t = useApp();
  const create = async (setup: object) =>
    (await t.http.post('/fights').send(setup).expect(201)).body.fightId as string;
  const rest =
    (id: string) =>
    (cmd: Record<string, unknown>, status = 200) =>
      t.http.post(`/fights/${id}/commands`).send(cmd).expect(status);
  const logLength = async (id: string) =>
    (await t.http.get(`/fights/${id}/log`).expect(200)).body.events.length as number;
  const verified = async (id: string) => {
    const log = (await t.http.get(`/fights/${id}/log`).expect(200)).body;
    expect((await t.http.post('/audit/verify').send(log).expect(200)).body).toMatchObject({ ok: true });
  };

  it('C13: a Narateer response with one face too many and its Continuation Check missing is a 422 naming dice[3], not a request', async () => {
    const id = await create(narateer);
    const send = rest(id);
    for (const cmd of [...nOpening, declare(1)]) await send(cmd);
    const before = await logLength(id);
    // Mira's 2 AD and Orin's Clash die are 3 faces; the wound calls for a Continuation Check (2 in followUpFaces).
    const clash = { type: 'RespondToExchange', combatantId: 'orin', response: 'clash', boost: 0 };
    const refused = (await send({ ...clash, dice: [6, 6, 1, 1] }, 422)).body;
    expect(refused).toMatchObject({ code: 'DICE_MANUAL_FACES_EXTRA', field: 'dice[3]' });
    expect(refused.message).toContain('rolls 3 face(s) in dice, got 4');
    expect(await logLength(id)).toBe(before);
    const asked = (await send({ ...clash, dice: [6, 6, 1] })).body;
    expect(asked.view.pending).toMatchObject({ kind: 'dice', detail: { field: 'followUpFaces', count: 2 } });
    const done = (await send({ type: 'ProvideDice', followUpFaces: [4, 1] })).body;
    expect(done.events.map((e: { type: string }) => e.type)).toContain('ContinuationChecked');
    expect(done.view.pending).toBeNull();
    await verified(id);
  });

  it('S18, C13: an Archsoul attack held by a reactive attack refuses its dice as DICE_ACTION_HELD; ResumeAction rolls them', async () => {
    const id = await create(archsoul);
    const send = rest(id);
    for (const cmd of aOpening) await send(cmd);
    const before = await logLength(id);
    const shot = { type: 'Attack', attackerId: 'ilsa', targetId: 'brute', weaponId: 'bow' };
    const refused = (await send({ ...shot, dice: [1, 2, 3, 2, 5, 6, 1] }, 422)).body;
    expect(refused).toMatchObject({ code: 'DICE_ACTION_HELD', field: 'dice' });
    expect(refused.message).toContain('ResumeAction');
    expect(await logLength(id)).toBe(before);
    expect((await send(shot)).body.view.pending).toMatchObject({ kind: 'reactiveAttack', awaiting: 'brute' });
    expect(
      (await send({ type: 'DeclineReactiveAttack', combatantId: 'brute' })).body.view.pending,
    ).toMatchObject({ kind: 'resumeAction', awaiting: 'ilsa' });
    const resumed = (await send({ type: 'ResumeAction', combatantId: 'ilsa', dice: [1, 2, 3, 2] })).body;
    expect(resumed.events.map((e: { type: string }) => e.type)).toEqual([
      'ActionResumed',
      'AmmunitionSpent',
      'ExchangeResolved',
      'ProjectileLanded',
    ]);
    await verified(id);
  });
});

/** Draws faces from a random stream, ones and top faces more often (critical failures, rerolls), noting them per field. */
class Recording implements DiceSource {
  readonly faces: Record<ManualField, number[]> = { dice: [], rerollFaces: [], followUpFaces: [] };
  /** The size of the command's own first pool (its first draw from dice), if any. */
  firstPool: number | undefined;
  private i = 0;
  constructor(private readonly stream: number[]) {}
  roll(count: number, sides: number, kind: DrawKind = 'pool'): Roll {
    const field: ManualField = kind === 'pool' ? 'dice' : kind === 'reroll' ? 'rerollFaces' : 'followUpFaces';
    if (kind === 'pool' && this.firstPool === undefined) this.firstPool = count;
    const faces = Array.from({ length: count }, () => {
      const r = this.stream[this.i++ % this.stream.length] % (sides + 4);
      return r === 0 || r === sides + 1 ? 1 : r > sides ? sides : r;
    });
    this.faces[field].push(...faces);
    return { sides, faces };
  }
}

interface Scenario {
  name: string;
  fight: CreateFightInput;
  opening: CommandInput[];
  command: RuleCommand;
}

const respond = (response: string, boost = 0): RuleCommand => ({
  type: 'RespondToExchange',
  combatantId: 'orin',
  response,
  boost,
});
const SCENARIOS: Scenario[] = [
  ...['none', 'fullGuard', 'clash'].flatMap((r) =>
    [0, 1, 2].map((b) => ({
      name: `Narateer: Boost ${b}, ${r}`,
      fight: narateer,
      opening: [...nOpening, declare(b)],
      command: respond(r),
    })),
  ),
  {
    name: 'Narateer: Clash with Boost',
    fight: narateer,
    opening: [...nOpening, declare(1)],
    command: respond('clash', 1),
  },
  {
    name: 'Narateer: a shot the archer cannot see well (Disadvantage)',
    fight: narateer,
    opening: nOpening,
    command: {
      type: 'DeclareExchange',
      attackerId: 'mira',
      targetId: 'orin',
      kind: 'ranged',
      weaponId: 'bow',
      boost: 1,
      distance: 20,
      attackerCannotSeeTarget: true,
      response: 'none',
    },
  },
  { name: 'Arcana Beast: initiative', fight: arcana(), opening: [], command: { type: 'RollInitiative' } },
  {
    name: 'Arcana Beast: initiative, ties rerolled',
    fight: arcana({ initiativeTies: 'reroll' }),
    opening: [],
    command: { type: 'RollInitiative' },
  },
  {
    name: 'Arcana Beast: a claw at close range',
    fight: arcana(),
    opening: aClose,
    command: { type: 'Attack', attackerId: 'ember', targetId: 'wolf' },
  },
  {
    name: 'Archsoul: a sword at the Brute',
    fight: archsoul,
    opening: aOpening,
    command: { type: 'Attack', attackerId: 'ilsa', targetId: 'brute', weaponId: 'sword' },
  },
  {
    name: 'Archsoul: a bow shot at the Scout',
    fight: archsoul,
    opening: aApart,
    command: { type: 'Attack', attackerId: 'ilsa', targetId: 'scout', weaponId: 'bow' },
  },
  {
    name: 'Archsoul: a bow shot in the Brute’s reach (held: its dice go with ResumeAction)',
    fight: archsoul,
    opening: aOpening,
    command: { type: 'Attack', attackerId: 'ilsa', targetId: 'brute', weaponId: 'bow' },
  },
];

const bare = (events: Array<{ type: string; data: unknown }>) =>
  JSON.parse(JSON.stringify(events.map((e) => ({ type: e.type, data: e.data }))));

describe('RULINGS.md C6, docs/rulings.md C13: manual dice over the service, for random commands that roll, in all three systems', () => {
  const service = new FightService(new InMemoryEventStore());
  /** A fresh fight at the scenario's command, and the state the service decides it on (its events folded). */
  const at = async (s: Scenario) => {
    const system = findSystem(s.fight.system)!;
    const created = await service.create(s.fight);
    const events: RuleEvent[] = [...created.events];
    for (const cmd of s.opening) events.push(...(await service.execute(created.fightId, cmd)).events);
    return {
      fightId: created.fightId,
      state: events.reduce<FightCore>(system.evolve, system.start(created.fightId)),
      system,
    };
  };
  const refusal = async (fightId: string, command: CommandInput) => {
    const before = (await service.events(fightId)).length;
    const e = await service.execute(fightId, command).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect((await service.events(fightId)).length).toBe(before);
    expect(e).toBeInstanceOf(RuleViolation);
    return e as RuleViolation;
  };

  it('every scenario plays from its opening', async () => {
    for (const s of SCENARIOS) {
      const { state, system } = await at(s);
      const recording = new Recording([1, 2, 3, 4, 5, 6, 7, 8]);
      const events = system.decide(state, s.command, recording);
      // Each rolls (the held shot aside, whose dice go with ResumeAction).
      if (events.some((e) => e.type === 'ReactiveAttackTriggered')) expect(s.name).toContain('held');
      else expect(recording.firstPool).toBeGreaterThan(0);
    }
  });

  it("S18, C13: a reactive attack the command's own critical failure triggers holds nothing: its faces are all used, one more is extra", async () => {
    const s = SCENARIOS.find((x) => x.name === 'Archsoul: a sword at the Brute')!;
    const { fightId, state, system } = await at(s);
    // Four ones: a critical failure; the melee table's 5: "leave yourself open", the Brute's reactive attack.
    const recording = new Recording([0, 0, 0, 0, 5, 0]);
    const whole = bare(system.decide(state, s.command, recording));
    expect(whole.map((e: { type: string }) => e.type)).toEqual([
      'ApSpent',
      'ExchangeResolved',
      'CriticalFailureRolled',
      'ReactiveAttackTriggered',
      'ReactiveAttackOffered',
    ]);
    expect(recording.faces).toEqual({ dice: [1, 1, 1, 1], rerollFaces: [], followUpFaces: [5] });
    const e = await refusal(fightId, { ...s.command, dice: [1, 1, 1, 1, 1], followUpFaces: [5] });
    expect(e).toMatchObject({ code: 'DICE_MANUAL_FACES_EXTRA', field: 'dice[4]' });
    const out = await service.execute(fightId, { ...s.command, dice: [1, 1, 1, 1], followUpFaces: [5] });
    expect(bare(out.events)).toEqual(whole);
  });

  it('exactly the faces: decided, nothing asked; one fewer: asked for that one face (or refused in the first pool) and completed; one more: refused at once, naming the field', async () => {
    const variant = fc.oneof(
      fc.constant({ kind: 'exact' as const }),
      fc.record({ kind: fc.constant('fewer' as const), pick: fc.nat() }),
      fc.record({
        kind: fc.constant('more' as const),
        field: fc.constantFrom(...MANUAL_FIELDS),
        face: fc.integer({ min: 1, max: 6 }),
      }),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...SCENARIOS),
        fc.array(fc.nat(), { minLength: 8, maxLength: 40 }),
        variant,
        async (s, stream, v) => {
          const { fightId, state, system } = await at(s);
          const recording = new Recording(stream);
          const whole = bare(system.decide(state, s.command, recording));
          const faces: ManualFaces = {};
          for (const f of MANUAL_FIELDS) if (recording.faces[f].length > 0) faces[f] = recording.faces[f];
          // C13: held before it rolls (S18): a reactive attack comes first and the command drew no face. One the
          // command's own roll triggers (a critical failure's "leave yourself open") comes after its faces: those are
          // all used, and one more is extra like any other.
          const held =
            recording.firstPool === undefined &&
            whole.some((e: { type: string }) => e.type === 'ReactiveAttackTriggered');

          if (v.kind === 'exact') {
            const out = await service.execute(fightId, { ...s.command, ...faces });
            expect(bare(out.events)).toEqual(whole);
            expect(out.events.map((e) => e.type)).not.toContain('DiceRequested');
          } else if (v.kind === 'more') {
            const list = faces[v.field] ?? [];
            const e = await refusal(fightId, { ...s.command, ...faces, [v.field]: [...list, v.face] });
            if (held) expect(e).toMatchObject({ code: 'DICE_ACTION_HELD', field: v.field });
            else
              expect(e).toMatchObject({
                code: 'DICE_MANUAL_FACES_EXTRA',
                field: `${v.field}[${list.length}]`,
              });
            expect(e.message).toContain(held ? 'ResumeAction' : `rolls ${list.length} face(s) in ${v.field}`);
          } else {
            const filled = MANUAL_FIELDS.filter((f) => (faces[f]?.length ?? 0) > 0);
            if (filled.length === 0) return;
            const field = filled[v.pick % filled.length];
            const list = faces[field]!;
            const short = { ...s.command, ...faces, [field]: list.slice(0, -1) } as CommandInput;
            if (field === 'dice' && list.length === recording.firstPool) {
              // C13: the command's own first pool comes whole with it.
              expect(await refusal(fightId, short)).toMatchObject({
                code: 'DICE_MANUAL_FACES_MISSING',
                field: `dice[${list.length - 1}]`,
              });
              return;
            }
            const asked = await service.execute(fightId, short);
            expect(asked.events.at(-1)?.type).toBe('DiceRequested');
            expect(asked.view.pending).toMatchObject({ kind: 'dice', detail: { field, count: 1 } });
            const done = await service.execute(fightId, { type: 'ProvideDice', [field]: list.slice(-1) });
            expect(bare([...asked.events.slice(0, -1), ...done.events])).toEqual(whole);
            expect((done.view.pending as { kind?: string } | null)?.kind).not.toBe('dice');
          }
          expect(verifyFightLog(await service.exportLog(fightId)).ok).toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  }, 600_000); // bounded by numRuns; a loaded machine is slow, never a reason to fail
});
