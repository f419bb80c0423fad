import { RuleCommand, RuleEvent } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { SeededDice } from '../../src/dice/seeded';
import {
  ARCANA_BEAST_CONTRACT,
  ARCANA_BEAST_EVENT_SCHEMAS,
  arcanaBeast,
  ArcanaBeastState,
  isBeast,
} from '../../src/arcana-beast';
import { TEST_COMMITMENT } from '../given';
import { bandBetween } from '../../src/arcana-beast/decide/common';
import { beast, binder, wild } from './helpers';

/**
 * Every event Arcana Beast decides matches its declaration (contract.ts / events.ts): whole fights are played
 * — every command type, chosen by a fixed pseudo-random walk over what the fight allows, with seeded dice —
 * and the data of every event is parsed against ARCANA_BEAST_EVENT_SCHEMAS[type]. A declaration that drifts
 * from what `decide` emits (a field renamed, added or of another type) fails here.
 */
const LIFECYCLE_EVENTS = new Set([
  'FightStarted',
  'CombatantJoined',
  'CombatantRemoved',
  'InitiativeRolled',
  'InitiativeSet',
  'RoundStarted',
  'RoundEnded',
  'ActivationStarted',
  'ActivationEnded',
  'GmNoteAdded',
  'PendingCancelled',
  'FightEnded',
]);

/** mulberry32: the same walk on every run. */
function random(seed: number): () => number {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const sheets = {
  ember: beast({
    hp: 9,
    stages: [{ stage: 0 }, { stage: 1 }, { stage: 2 }, { stage: 3, trigger: 'protect Ash' }],
  }),
  ash: binder('ember', {
    hp: 6,
    inventory: [
      { id: 'potion', name: 'Potion', heal: 4, stamina: 1, quantity: 3 },
      { id: 'salve', name: 'Salve', removesCondition: true, test: { stat: 'technique', difficulty: 1 } },
    ],
  }),
  pip: beast({
    hp: 6,
    stage: 1,
    stages: [{ stage: 0 }, { stage: 1 }, { stage: 2, trigger: 'rage' }],
    stats: { brawn: 2, agility: 3, endurance: 1, spirit: 2, technique: 2 },
    movement: ['teleport'],
  }),
  bo: binder('pip', { hp: 5 }),
  wolf: wild({ hp: 7, stats: { brawn: 4, agility: 3, endurance: 2, spirit: 2, technique: 2 } }),
  alpha: wild({
    hp: 9,
    stage: 2,
    stages: [{ stage: 2 }],
    stats: { brawn: 5, agility: 3, endurance: 2, spirit: 2, technique: 2 },
  }),
};
const ids = Object.keys(sheets);
const sides: Record<string, string> = {
  ember: 'heroes',
  ash: 'heroes',
  pip: 'heroes',
  bo: 'heroes',
  wolf: 'wild',
  alpha: 'wild',
};

function pick<T>(rnd: () => number, list: readonly T[]): T {
  return list[Math.floor(rnd() * list.length)];
}

/** A command the fight may well accept now: the answer to what is pending, the lifecycle's next step, or a turn's move. */
function nextCommand(s: ArcanaBeastState, rnd: () => number): RuleCommand {
  const other = (not: string) =>
    pick(
      rnd,
      ids.filter((id) => id !== not),
    );
  const any = () => pick(rnd, ids);
  if (s.pending?.kind === 'intercept')
    return { type: 'Intercept', combatantId: s.pending.awaiting, intercept: rnd() < 0.6 };
  if (s.pending?.kind === 'initiativeTie')
    return rnd() < 0.7 ? { type: 'RerollInitiative' } : { type: 'SetInitiative', order: [...s.order] };
  if (s.order.length === 0) return { type: 'RollInitiative', surprised: rnd() < 0.5 ? [any()] : [] };
  if (!s.roundOpen) return rnd() < 0.1 ? { type: 'EndScene' } : { type: 'StartRound' };
  if (!s.turn) return s.activeId ? { type: 'EndActivation' } : { type: 'StartActivation' };
  const beastId = s.turn.beastId;
  const closeTo = ids.filter((id) => id !== beastId && bandBetween(s, beastId, id) === 'close');
  const near = () => (closeTo.length > 0 ? pick(rnd, closeTo) : other(beastId));
  const binderId = s.turn.binderId;
  const c = s.combatants[beastId];
  const sheet = isBeast(c) ? c.sheet : undefined;
  const gm: RuleCommand[] = [
    {
      type: 'SetBand',
      aId: any(),
      bId: any(),
      band: pick(rnd, ['close', 'close', 'near', 'far'] as const),
      ...(rnd() < 0.3 ? { difficultTerrain: pick(rnd, [true, false, 0, 2]) } : {}),
    },
    {
      type: 'SetTag',
      combatantId: any(),
      tag: pick(rnd, ['highGround', 'cover', 'flanking', 'cornered', 'obscured'] as const),
      ...(rnd() < 0.3 ? { againstId: any() } : {}),
    },
    {
      type: 'ClearTag',
      combatantId: any(),
      tag: pick(rnd, ['highGround', 'cover', 'flanking', 'cornered', 'obscured'] as const),
    },
    { type: 'ApplyCondition', combatantId: any(), condition: pick(rnd, ['dazed', 'burning']) },
    { type: 'RemoveCondition', combatantId: any(), condition: pick(rnd, ['dazed', 'burning']) },
    {
      type: 'SetTrigger',
      combatantId: pick(rnd, ['ember', 'pip']),
      ...(rnd() < 0.5 ? { kind: 'zeroPower' } : { stage: pick(rnd, [2, 3]) }),
      active: rnd() < 0.8,
    },
    {
      type: 'RollTest',
      combatantId: any(),
      stat: 'agility',
      difficulty: 1,
      ...(rnd() < 0.5 ? { boost: true, bonusDice: 1, reason: 'leap' } : {}),
    },
    {
      type: 'RollOpposedTest',
      aId: any(),
      aStat: 'brawn',
      bId: any(),
      ...(rnd() < 0.5 ? { bStat: 'agility', reason: 'shove' } : {}),
    },
  ];
  const commands: RuleCommand[] = binderId
    ? [
        { type: 'Direct', combatantId: binderId },
        {
          type: 'Encourage',
          combatantId: binderId,
          ...(rnd() < 0.5 ? { effect: 'removeCondition', condition: pick(rnd, ['dazed', 'burning']) } : {}),
        },
        { type: 'Strategize', combatantId: binderId },
        {
          type: 'CallBack',
          combatantId: binderId,
          mode: pick(rnd, ['retreat', 'devolve', 'devolve'] as const),
        },
        {
          type: 'UseItem',
          combatantId: binderId,
          itemId: pick(rnd, ['potion', 'salve']),
          condition: 'dazed',
          ...(rnd() < 0.3 ? { targetId: binderId } : {}),
        },
        { type: 'UseItem', combatantId: binderId, itemId: 'potion' },
        { type: 'BondSurge', combatantId: binderId },
      ]
    : [];
  const actions: RuleCommand[] = [
    {
      type: 'Attack',
      attackerId: beastId,
      targetId: other(beastId),
      ...(sheet ? { attackId: pick(rnd, sheet.attacks).id } : {}),
      ...(rnd() < 0.3 ? { bonusDice: 1 } : {}),
      ...(rnd() < 0.3 ? { intercept: rnd() < 0.5 } : {}),
    },
    { type: 'Attack', attackerId: beastId, targetId: near() },
    { type: 'Attack', attackerId: beastId, targetId: near() },
    { type: 'Attack', attackerId: beastId, targetId: pick(rnd, ['ash', 'bo']) },
    { type: 'UseSpecialAttack', attackerId: beastId, targetId: other(beastId), specialAttackId: 'inferno' },
    { type: 'UseZeroPower', attackerId: beastId, targetId: near() },
    { type: 'UseZeroPower', attackerId: beastId, targetId: near() },
    { type: 'Defend', combatantId: beastId },
    { type: 'Assist', combatantId: beastId, allyId: other(beastId) },
    { type: 'Guard', combatantId: beastId, allyId: other(beastId) },
    { type: 'Pass', combatantId: beastId },
    {
      type: 'Reposition',
      combatantId: beastId,
      ...(rnd() < 0.7
        ? { towardId: other(beastId), band: pick(rnd, ['close', 'near', 'far'] as const) }
        : {}),
    },
    {
      type: 'Move',
      combatantId: beastId,
      towardId: other(beastId),
      band: pick(rnd, ['close', 'near', 'far'] as const),
      ...(rnd() < 0.3 ? { using: 'teleport' } : {}),
    },
    { type: 'Evolve', combatantId: beastId, ...(rnd() < 0.5 ? { stage: pick(rnd, [1, 2, 3]) } : {}) },
  ];
  // What a player would seize: a marked Zero Power, a potion for a hurt or tired beast.
  if (c.zeroPowerTrigger && !c.zeroPowerUsed && s.turn.action === undefined && rnd() < 0.5)
    return { type: 'UseZeroPower', attackerId: beastId, targetId: near() };
  if (
    binderId &&
    s.turn.command === undefined &&
    (c.stamina < c.sheet.maxStamina || c.hp < c.sheet.maxHp) &&
    rnd() < 0.5
  )
    return { type: 'UseItem', combatantId: binderId, itemId: 'potion' };
  const roll = rnd();
  if (roll < 0.12) return { type: 'EndActivation' };
  if (roll < 0.35) return pick(rnd, gm);
  if (roll < 0.55 && commands.length > 0) return pick(rnd, commands);
  return pick(rnd, actions);
}

/** One fight: StartFight, then `steps` commands of the walk; every event decided, in order. */
function play(seed: number, steps: number, options: Record<string, unknown> = {}): RuleEvent[] {
  const rnd = random(seed);
  const start: RuleCommand = {
    type: 'StartFight',
    dice: { mode: 'seeded', commitment: TEST_COMMITMENT },
    options,
    combatants: ids.map((id) => ({
      id,
      name: id,
      side: sides[id],
      sheet: sheets[id as keyof typeof sheets],
    })),
  };
  let state = arcanaBeast.start(`walk-${seed}`);
  let draws = 0;
  const all: RuleEvent[] = [];
  const apply = (command: RuleCommand) => {
    const dice = new SeededDice({ seed: `seed-${seed}`, fightId: `walk-${seed}`, drawsUsed: draws });
    try {
      const events = arcanaBeast.decide(state, command, dice);
      draws = dice.drawsUsed;
      state = events.reduce(arcanaBeast.evolve, state);
      all.push(...events);
    } catch (e) {
      if (!(e instanceof RuleViolation)) throw e;
    }
  };
  apply(start);
  for (let i = 0; i < steps && state.status !== 'ended'; i++) apply(nextCommand(state, rnd));
  return all;
}

const fights = [play(1, 900), play(2, 900, { initiativeTies: 'reroll' }), play(3, 900), play(4, 900)];

describe('Every event Arcana Beast decides matches its declaration', () => {
  it('the fights reach every declared event type (so every declaration is checked against real data)', () => {
    const seen = new Set(fights.flat().map((e) => e.type));
    expect(Object.keys(ARCANA_BEAST_EVENT_SCHEMAS).filter((t) => !seen.has(t))).toEqual([]);
  });

  it('the system declares only its own events: the lifecycle’s are core’s', () => {
    expect(Object.keys(ARCANA_BEAST_EVENT_SCHEMAS).filter((t) => LIFECYCLE_EVENTS.has(t))).toEqual([]);
    expect(ARCANA_BEAST_CONTRACT.events).toBe(ARCANA_BEAST_EVENT_SCHEMAS);
  });

  it.each(fights.map((events, i) => [i + 1, events]))(
    'fight %i: the data of every event parses against its schema, unchanged',
    (_n, events) => {
      for (const e of events) {
        if (LIFECYCLE_EVENTS.has(e.type)) continue;
        expect(Object.keys(ARCANA_BEAST_EVENT_SCHEMAS)).toContain(e.type);
        const schema = ARCANA_BEAST_EVENT_SCHEMAS[e.type as keyof typeof ARCANA_BEAST_EVENT_SCHEMAS];
        const parsed = schema.safeParse(e.data);
        if (!parsed.success) throw new Error(`${e.type} ${JSON.stringify(e.data)}: ${parsed.error.message}`);
        expect(parsed.data).toEqual(e.data);
      }
    },
  );

  it('a drifted event is refused by its schema: an extra field, a field of another type, a missing field', () => {
    const resolved = fights.flat().find((e) => e.type === 'AttackResolved')!.data;
    const schema = ARCANA_BEAST_EVENT_SCHEMAS.AttackResolved;
    expect(schema.safeParse(resolved).success).toBe(true);
    expect(schema.safeParse({ ...resolved, margin: 1 }).success).toBe(false);
    expect(schema.safeParse({ ...resolved, damage: '3' }).success).toBe(false);
    const { outcome: _gone, ...missing } = resolved;
    expect(schema.safeParse(missing).success).toBe(false);
  });
});
