import { eventSchemasOf } from '../../src/core/lifecycle-contract';
import { RuleEvent } from '../../src/core/types';
import { NARATEER_EVENT_SCHEMAS, NARATEER_FOLDED_SHEET, narateer } from '../../src/narateer';
import { mira, sera, veyr } from './helpers';
import { duel, gmRound, Table, yard } from './table';

/** ranged.unit.spec's shootout over a few rounds: fire, Clash back, reload the crossbow, unaware and unseen targets. */
function shootout(): RuleEvent[] {
  const t = new Table(
    [
      { id: 'sera', sheet: sera },
      { id: 'veyr', sheet: { ...veyr, maxVitality: 12 } },
    ],
    'seeded',
    narateer,
  );
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

/** The GM's tools: conditions that run out, harm by spell with an allocation asked for, Lingering Harm treated. */
function gm(): RuleEvent[] {
  const t = gmRound(narateer);
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

const FIGHTS = {
  duel: () => duel(narateer).log,
  shootout,
  yard: () => yard(narateer).log,
  gm,
};
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
