import { RuleCommand, RuleEvent } from '../../src/core/types';
import { ManualFaces } from '../../src/dice/manual';
import {
  ARCANA_BEAST_EVENT_SCHEMAS,
  arcanaBeast,
  ArcanaBeastState,
  validateSheet,
} from '../../src/arcana-beast';
import { decideExact, fightStarted, given } from '../given';
export { find, types } from '../given';

type Sheet = Record<string, unknown>;
const stats = (brawn: number, agility: number, endurance = 2, spirit = 2, technique = 2) => ({
  brawn,
  agility,
  endurance,
  spirit,
  technique,
});

export function binder(beastId: string, overrides: Sheet = {}): Sheet {
  return {
    kind: 'binder',
    beastId,
    stats: stats(1, 2, 2, 3, 2),
    hp: 10,
    stamina: 3,
    inventory: [
      { id: 'potion', name: 'Potion', heal: 4 },
      { id: 'salve', name: 'Salve', removesCondition: true, test: { stat: 'technique', difficulty: 1 } },
    ],
    ...overrides,
  };
}

export function beast(overrides: Sheet = {}): Sheet {
  return {
    kind: 'beast',
    stats: stats(3, 2),
    qualities: { Claws: 1, Nimble: 1 },
    defensiveQualities: ['Nimble'],
    hp: 12,
    stamina: 2,
    stage: 2,
    stages: [
      { stage: 0 },
      { stage: 1 },
      { stage: 2, trigger: 'stand together' },
      { stage: 3, name: 'Emberlord', trigger: 'protect Ash' },
    ],
    attacks: [
      { id: 'claw', name: 'Claw', range: 'melee', ranks: 1, qualities: ['Claws'] },
      { id: 'spark', name: 'Spark', range: 'ranged' },
    ],
    specialAttacks: [{ id: 'inferno', name: 'Inferno', range: 'long', ranks: 2, uses: 1, bonusDamage: 1 }],
    zeroPower: { name: 'Zero Flare', trigger: 'Ash falls', range: 'melee', ranks: 3 },
    movement: ['flight'],
    ...overrides,
  };
}

/** A wild beast: no Binder, Stage 1 (d6), Brawn 2, Agility 2, 8 HP, one melee Bite. */
export function wild(overrides: Sheet = {}): Sheet {
  return {
    kind: 'beast',
    stats: stats(2, 2),
    hp: 8,
    stamina: 1,
    stage: 1,
    stages: [{ stage: 1 }],
    attacks: [{ id: 'bite', name: 'Bite', range: 'melee' }],
    ...overrides,
  };
}

export interface Fighter {
  id: string;
  sheet: Sheet;
  side: string;
}

export function joined(f: Fighter): RuleEvent {
  return {
    type: 'CombatantJoined',
    data: { id: f.id, name: f.id, side: f.side, sheet: validateSheet(f.sheet, 'sheet') },
  };
}

/** Ash + Ember (Stage 2, d8) and Bo + Pip against two wolves, in that order; bands default Near. */
export const party: Fighter[] = [
  { id: 'ember', sheet: beast(), side: 'heroes' },
  { id: 'ash', sheet: binder('ember'), side: 'heroes' },
  {
    id: 'pip',
    sheet: beast({
      stage: 1,
      stages: [{ stage: 1 }],
      stats: stats(2, 3),
      zeroPower: undefined,
      specialAttacks: [],
      movement: [],
    }),
    side: 'heroes',
  },
  { id: 'bo', sheet: binder('pip'), side: 'heroes' },
  { id: 'wolf', sheet: wild(), side: 'wild' },
  { id: 'wolf2', sheet: wild(), side: 'wild' },
];

/** A started fight in round 1 (initiative = the listed order), `active`'s turn running. */
export function fight(fighters: Fighter[] = party, active?: string): RuleEvent[] {
  let events: RuleEvent[] = [
    fightStarted('arcana-beast'),
    ...fighters.map(joined),
    { type: 'InitiativeSet', data: { order: fighters.map((f) => f.id) } },
    { type: 'RoundStarted', data: { round: 1 } },
  ];
  if (active) events = then(events, { type: 'StartActivation', combatantId: active });
  return events;
}

export function close(events: RuleEvent[], a: string, b: string): RuleEvent[] {
  return then(events, { type: 'SetBand', aId: a, bId: b, band: 'close' });
}

/** Decides `command` on the folded `events` and returns the history with the new events appended. */
export function then(events: RuleEvent[], command: RuleCommand, faces: ManualFaces = {}): RuleEvent[] {
  return [...events, ...exact(events, command, faces)];
}

/**
 * The new events, checking that the command used exactly the manual faces given (C6, A16), and that
 * the data of each of the system's own events is what its schema declares (events.ts).
 */
export function exact(events: RuleEvent[], command: RuleCommand, faces: ManualFaces = {}): RuleEvent[] {
  const out = decideExact(arcanaBeast, events, command, faces);
  for (const e of out)
    if (Object.hasOwn(ARCANA_BEAST_EVENT_SCHEMAS, e.type))
      ARCANA_BEAST_EVENT_SCHEMAS[e.type as keyof typeof ARCANA_BEAST_EVENT_SCHEMAS].parse(e.data);
  return out;
}

export function refused(events: RuleEvent[], command: RuleCommand, faces: ManualFaces = {}) {
  return given(arcanaBeast, events).when(command, faces).violation();
}

export function stateOf(events: RuleEvent[]): ArcanaBeastState {
  return given(arcanaBeast, events).state;
}

/** `id`'s activation, after the running one ends (EndActivation, then StartActivation). */
export const next = (e: RuleEvent[], id: string): RuleEvent[] =>
  then(then(e, { type: 'EndActivation' }), { type: 'StartActivation', combatantId: id });

/**
 * The cast of the interaction specs. Ember: Stage 2 (d8), Brawn 3, Agility 2: Claw 5 d8 (Brawn 3 + Rank 1 + Claws 1),
 * Dodge 3 d8 (Agility 2 + Nimble 1), Base Damage 3 + 2 = 5; Ash its Binder.
 */
export const ember = (sheet: Sheet = {}): Fighter => ({ id: 'ember', sheet: beast(sheet), side: 'heroes' });
export const ash: Fighter = { id: 'ash', sheet: binder('ember'), side: 'heroes' };
/** Pip: Stage 1 (d6), Brawn 2, Agility 3: Claw 4 d6, Dodge 4 d6 (Agility 3 + Nimble 1), Base Damage 3; Bo its Binder. */
export const pip: Fighter = party[2];
export const bo: Fighter = party[3];
/** Kit: an allied beast with no Binder (wild, A35), Stage 1 (d6): Bite 2 d6, Dodge 2 d6, Base Damage 3. */
export const kit = (hp = 20): Fighter => ({ id: 'kit', sheet: wild({ hp }), side: 'heroes' });
/** Wolves: Stage 1 (d6), Brawn 2, Agility 2: Bite 2 d6, Dodge 2 d6, Base Damage 3. */
export const wolf = (id = 'wolf', hp = 20): Fighter => ({ id, sheet: wild({ hp }), side: 'wild' });

/** An Attack with the attacker's first attack (or `extra.attackId`). */
export const attack = (attackerId: string, targetId: string, extra: Sheet = {}): RuleCommand => ({
  type: 'Attack',
  attackerId,
  targetId,
  ...extra,
});
export const end = (e: RuleEvent[]): RuleEvent[] => then(e, { type: 'EndActivation' });
