import { RuleCommand, RuleEvent, RuleSystem } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import { ManualDice, ManualFaces } from '../../src/dice/manual';
import { SeededDice } from '../../src/dice/seeded';
import { findSystem } from '../../src/registry';
import { combatState, NarateerState } from '../../src/narateer';
import { fightStarted, TEST_SEED } from '../given';
import { FIGHT_ID } from '../view-contract';
import { bow, crossbow, joined, mace, mira, orin, sheet, spear, sword } from './helpers';

/** Narateer with dice requests, as the service plays it. */
export const service = findSystem('narateer') as unknown as RuleSystem<NarateerState>;

/** A fight played through decide and evolve as the service does, keeping every event as stored (JSON). */
export class Table {
  readonly log: RuleEvent[];
  state: NarateerState;
  private draws = 0;

  constructor(
    fighters: { id: string; sheet: Record<string, unknown>; side?: string }[],
    mode: 'seeded' | 'manual' = 'seeded',
    private readonly system: RuleSystem<NarateerState> = service,
  ) {
    this.log = [];
    this.state = system.start(FIGHT_ID);
    for (const e of [fightStarted('narateer', mode), ...fighters.map(joined)]) this.fold(e);
  }

  /** Decides `command` (with its manual faces, or seeded dice in a seeded fight); a refusal fails naming the command. */
  run(command: RuleCommand, faces: ManualFaces = {}): this {
    const dice =
      this.state.dice.mode === 'seeded'
        ? new SeededDice({ seed: TEST_SEED, fightId: FIGHT_ID, drawsUsed: this.draws })
        : new ManualDice(faces);
    let events: RuleEvent[];
    try {
      events = this.system.decide(this.state, command, dice);
    } catch (e) {
      if (e instanceof RuleViolation)
        throw new Error(`${JSON.stringify(command)} was refused: ${e.code} ${e.message}`, { cause: e });
      throw e;
    }
    if (dice instanceof SeededDice) this.draws = dice.drawsUsed;
    for (const e of events) this.fold(e);
    return this;
  }

  fold(event: RuleEvent): this {
    const stored = JSON.parse(JSON.stringify(event)) as RuleEvent;
    this.log.push(stored);
    this.state = this.system.evolve(this.state, stored);
    return this;
  }
}

/** fight.unit.spec's whole fight: rounds of melee exchanges to a collapse, answers up front and by policy, Lingering Harm. */
export function duel(system?: RuleSystem<NarateerState>): Table {
  const hero = { ...mira, maxVitality: 12, vitals: { strength: 2, agility: 3, resilience: 4 } };
  const brute = { ...orin, maxVitality: 6, responsePolicy: { response: 'clash', boost: 1 } };
  const t = new Table(
    [
      { id: 'mira', sheet: hero },
      { id: 'orin', sheet: brute },
    ],
    'seeded',
    system,
  );
  t.run({ type: 'RollInitiative' });
  t.run({ type: 'ApplyLingeringHarm', combatantId: 'orin', form: 'Bleeding' });
  while (
    t.state.round < 10 &&
    t.state.joined.every((id) => combatState(t.state.combatants[id]) === 'Active')
  ) {
    t.run({ type: 'StartRound' });
    while (t.state.roundOpen) {
      t.run({ type: 'StartActivation' });
      const me = t.state.activeId!;
      const foe = me === 'mira' ? 'orin' : 'mira';
      if (combatState(t.state.combatants[foe]) === 'Active' && t.state.combatants[me].ad.ready > 0) {
        const boost = Math.min(
          t.state.combatants[me].sheet.skills.melee,
          t.state.combatants[me].ad.ready - 1,
        );
        t.run({
          type: 'DeclareExchange',
          attackerId: me,
          targetId: foe,
          kind: 'melee',
          weaponId: t.state.combatants[me].sheet.weapons[0].id,
          boost,
          ...(foe === 'mira' ? { response: { response: 'fullGuard' } } : {}),
        });
        if (t.state.pending?.kind === 'exchangeResponse')
          t.run({ type: 'RespondToExchange', combatantId: foe, response: 'none' });
      }
      if (t.state.activeId) t.run({ type: 'EndActivation' });
    }
  }
  return t;
}

/** opportunity.unit.spec's yard: a move opens Opportunity Attacks, one taken, one lapsed; then off the map. */
export function yard(system?: RuleSystem<NarateerState>): Table {
  const t = new Table(
    [
      { id: 'g', sheet: { ...orin, weapons: [spear] }, side: 'guards' },
      { id: 'h', sheet: { ...orin, weapons: [mace] }, side: 'guards' },
      { id: 'm', sheet: { ...mira, maxMD: 2, woundPreference: 'MD_FIRST' }, side: 'm' },
    ],
    'seeded',
    system,
  );
  t.run({ type: 'SetInitiative', order: ['m', 'g', 'h'] });
  t.run({ type: 'SetPosition', combatantId: 'g', position: { x: 0, y: 0 } });
  t.run({ type: 'SetPosition', combatantId: 'h', position: { x: 2, y: 1 } });
  t.run({ type: 'SetPosition', combatantId: 'm', position: { x: 1, y: 0 } });
  t.run({ type: 'StartRound' });
  t.run({ type: 'StartActivation', combatantId: 'm' });
  t.run({
    type: 'Move',
    combatantId: 'm',
    path: [
      { x: 1, y: 1 },
      { x: 2, y: 2 },
    ],
  });
  t.run({
    type: 'TakeOpportunityAttack',
    combatantId: 'g',
    weaponId: 'spear',
    boost: 1,
    response: 'fullGuard',
  });
  if (t.state.pending?.kind === 'opportunityAttack') t.run({ type: 'DeclineOpportunity', combatantId: 'h' });
  t.run({ type: 'Move', combatantId: 'm', path: [{ x: 1, y: 2 }], noReactions: true });
  t.run({ type: 'Move', combatantId: 'm', path: [{ x: 1, y: 3 }], forced: true });
  t.run({ type: 'SetPosition', combatantId: 'm', position: { x: 1, y: 0 } });
  t.run({ type: 'Move', combatantId: 'm', path: [{ x: 1, y: 1 }] });
  // As in opportunity.unit.spec: h can no longer pay when its turn to react comes, and lapses.
  t.fold({ type: 'DiceSpent', data: { combatantId: 'h', ad: t.state.combatants.h.ad.ready, md: 0 } });
  t.run({ type: 'DeclineOpportunity', combatantId: 'g' });
  t.run({ type: 'SpendDice', combatantId: 'm', ad: 1, proactiveUse: 'melee', reason: 'a shove' });
  t.run({ type: 'SetPosition', combatantId: 'm', position: null });
  return t;
}

/** The GM's tools, their first round: conditions that run out, harm by spell with an allocation asked for, a hex. */
export function gmRound(system?: RuleSystem<NarateerState>): Table {
  const t = new Table(
    [
      {
        id: 'a',
        sheet: sheet({ maxVitality: 20, maxMD: 3, woundPreference: 'ASK', weapons: [sword, bow, crossbow] }),
      },
      { id: 'b', sheet: sheet() },
    ],
    'seeded',
    system,
  );
  t.run({ type: 'SetInitiative', order: ['a', 'b'] });
  t.run({ type: 'ApplyCondition', combatantId: 'a', condition: 'prone', intensity: 2, rounds: 1 });
  t.run({ type: 'ApplyCondition', combatantId: 'b', condition: 'blinded' });
  t.run({ type: 'StartRound' });
  t.run({
    type: 'ApplyWounds',
    combatantId: 'a',
    woundMargin: 4,
    harm: { domain: 'Elemental', type: 'Fire' },
    effect: 'Fireball',
  });
  t.run({ type: 'AllocateWounds', combatantId: 'a', allocation: ['MD', 'AD'] });
  t.run({
    type: 'ApplyWounds',
    combatantId: 'a',
    wounds: 1,
    harm: 'Supernatural (Psychic)',
    allocation: ['MD'],
  });
  t.run({
    type: 'ApplyLingeringHarm',
    combatantId: 'a',
    form: 'Cursed',
    harm: 'Supernatural (Necrotic)',
    wounds: 2,
    source: 'a hex',
  });
  return t;
}
