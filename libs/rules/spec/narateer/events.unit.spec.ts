import { eventSchemasOf } from '../../src/core/lifecycle-contract';
import { RuleCommand, RuleEvent } from '../../src/core/types';
import { SeededDice } from '../../src/dice/seeded';
import {
  combatState,
  NARATEER_EVENT_SCHEMAS,
  NARATEER_FOLDED_SHEET,
  narateer,
  NarateerState,
} from '../../src/narateer';
import { fightStarted, TEST_SEED } from '../given';
import { bow, crossbow, joined, mace, mira, orin, sera, sheet, spear, sword, veyr } from './helpers';

/** A fight driven through decide and evolve with seeded dice, keeping every event as stored (JSON). */
class Table {
  readonly log: RuleEvent[] = [fightStarted('narateer', 'seeded')];
  state: NarateerState = this.log.reduce(narateer.evolve, narateer.start('f1'));
  private readonly dice = new SeededDice({ seed: TEST_SEED, fightId: 'f1', drawsUsed: 0 });

  constructor(fighters: { id: string; sheet: Record<string, unknown>; side?: string }[]) {
    for (const f of fighters) this.fold(joined(f));
  }

  run(command: RuleCommand): RuleEvent[] {
    const events = narateer.decide(this.state, command, this.dice);
    for (const e of events) this.fold(e);
    return events;
  }

  fold(e: RuleEvent): void {
    const stored = JSON.parse(JSON.stringify(e)) as RuleEvent;
    this.log.push(stored);
    this.state = narateer.evolve(this.state, stored);
  }
}

/** fight.unit.spec's whole fight: rounds of melee exchanges to a collapse, answers up front and by policy, Lingering Harm. */
function duel(): RuleEvent[] {
  const hero = { ...mira, maxVitality: 12, vitals: { strength: 2, agility: 3, resilience: 4 } };
  const brute = { ...orin, maxVitality: 6, responsePolicy: { response: 'clash', boost: 1 } };
  const t = new Table([
    { id: 'mira', sheet: hero },
    { id: 'orin', sheet: brute },
  ]);
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
  return t.log;
}

/** ranged.unit.spec's shootout over a few rounds: fire, Clash back, reload the crossbow, unaware and unseen targets. */
function shootout(): RuleEvent[] {
  const t = new Table([
    { id: 'sera', sheet: sera },
    { id: 'veyr', sheet: { ...veyr, maxVitality: 12 } },
  ]);
  t.run({ type: 'SetInitiative', order: ['sera', 'veyr'] });
  for (let round = 1; round <= 3; round++) {
    t.run({ type: 'StartRound' });
    t.run({ type: 'StartActivation', combatantId: 'sera' });
    t.run({
      type: 'DeclareExchange',
      attackerId: 'sera',
      targetId: 'veyr',
      kind: 'ranged',
      weaponId: 'bow',
      distance: 15,
      attackerUnseen: round === 2,
      targetUnaware: round === 3,
    });
    if (t.state.pending?.kind === 'exchangeResponse')
      t.run({
        type: 'RespondToExchange',
        combatantId: 'veyr',
        response: t.state.combatants.veyr.weapons.crossbow.loaded ? 'clash' : 'fullGuard',
        weaponId: t.state.combatants.veyr.weapons.crossbow.loaded ? 'crossbow' : undefined,
      });
    t.run({ type: 'EndActivation' });
    if (!t.state.roundOpen) continue;
    t.run({ type: 'StartActivation', combatantId: 'veyr' });
    t.run({ type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' });
    t.run({ type: 'EndActivation' });
  }
  return t.log;
}

/** opportunity.unit.spec's yard: a move opens Opportunity Attacks, one taken, one lapsed; then off the map. */
function yard(): RuleEvent[] {
  const t = new Table([
    { id: 'g', sheet: { ...orin, weapons: [spear] }, side: 'guards' },
    { id: 'h', sheet: { ...orin, weapons: [mace] }, side: 'guards' },
    { id: 'm', sheet: { ...mira, maxMD: 2, woundPreference: 'MD_FIRST' }, side: 'm' },
  ]);
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
  return t.log;
}

/** The GM's tools: conditions that run out, harm by spell with an allocation asked for, Lingering Harm treated. */
function gm(): RuleEvent[] {
  const t = new Table([
    {
      id: 'a',
      sheet: sheet({ maxVitality: 20, maxMD: 3, woundPreference: 'ASK', weapons: [sword, bow, crossbow] }),
    },
    { id: 'b', sheet: sheet() },
  ]);
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
  t.run({ type: 'RemoveCondition', combatantId: 'b', condition: 'blinded' });
  t.run({ type: 'EndRound' });
  // N28: the tick waits for a's choice; the answer ends the round.
  t.run({ type: 'AllocateWounds', combatantId: 'a', allocation: ['MD', 'AD'] });
  t.run({
    type: 'TreatLingeringHarm',
    combatantId: 'a',
    lingeringHarmId: 'lh1',
    reason: 'the hex is broken',
  });
  // N38, N39: stated terms, a refresh, and an instance that ends by its count of ticks.
  t.run({
    type: 'ApplyLingeringHarm',
    combatantId: 'a',
    form: 'Bleeding',
    source: 'knife',
    tick: 'roundStart',
    endsAfterTicks: 1,
    endsWhen: 'bandaged',
    allocation: ['AD'],
  });
  t.run({
    type: 'ApplyLingeringHarm',
    combatantId: 'a',
    form: 'Bleeding',
    source: 'knife',
    rounds: 3,
    endsAfterTicks: 1,
  });
  t.run({ type: 'StartRound' });
  return t.log;
}

const FIGHTS = { duel, shootout, yard, gm };
const LOGS = Object.fromEntries(Object.entries(FIGHTS).map(([name, play]) => [name, play()]));
const SCHEMAS = eventSchemasOf(narateer.contract);

describe('Narateer contract: every event decide emits matches its declaration', () => {
  it.each(Object.keys(FIGHTS))('%s: every event’s data parses with the schema of its type', (name) => {
    for (const [seq, e] of LOGS[name].entries()) {
      expect({ seq, type: e.type, declared: Object.hasOwn(SCHEMAS, e.type) }).toEqual({
        seq,
        type: e.type,
        declared: true,
      });
      const result = SCHEMAS[e.type].safeParse(e.data);
      expect({ seq, type: e.type, issues: result.error?.issues ?? [] }).toEqual({
        seq,
        type: e.type,
        issues: [],
      });
    }
  });

  it('the fights emit every Narateer event type at least once, so no declaration goes unchecked', () => {
    const seen = new Set(Object.values(LOGS).flatMap((log) => log.map((e) => e.type)));
    expect(Object.keys(NARATEER_EVENT_SCHEMAS).filter((type) => !seen.has(type))).toEqual([]);
  });

  it('CombatantJoined records the sheet as folded, and the folded sheet has a declaration of its own', () => {
    const sheets = Object.values(LOGS).flatMap((log) =>
      log.filter((e) => e.type === 'CombatantJoined').map((e) => (e.data as { sheet: unknown }).sheet),
    );
    expect(sheets.length).toBeGreaterThan(8);
    for (const s of sheets) expect(NARATEER_FOLDED_SHEET.safeParse(s).error?.issues ?? []).toEqual([]);
    // The sheet a client sends is not what the fight records.
    expect(NARATEER_FOLDED_SHEET.safeParse(mira).success).toBe(false);
  });

  it('a declaration that drifts from what decide emits fails: an extra field, a missing one, a wrong type', () => {
    const resolved = LOGS.duel.find((e) => e.type === 'ExchangeResolved')!.data;
    expect(NARATEER_EVENT_SCHEMAS.ExchangeResolved.safeParse(resolved).success).toBe(true);
    expect(NARATEER_EVENT_SCHEMAS.ExchangeResolved.safeParse({ ...resolved, margin: 1 }).success).toBe(false);
    expect(
      NARATEER_EVENT_SCHEMAS.ExchangeResolved.safeParse({ ...resolved, outcome: undefined }).success,
    ).toBe(false);
    expect(
      NARATEER_EVENT_SCHEMAS.ExchangeResolved.safeParse({
        ...resolved,
        attacker: { ...(resolved.attacker as object), total: '3' },
      }).success,
    ).toBe(false);
  });
});
