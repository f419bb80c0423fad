import { narateer, RuleCommand, RuleEvent, SeededDice, seedCommitment } from '@app/rules';
import { validateSheet } from '@app/rules/narateer';
import type { NarateerState } from '@app/rules/narateer';

const SEED = 'a'.repeat(64);

const weapon = {
  id: 'sword',
  name: 'Arming sword',
  kind: 'melee',
  weight: 'light',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitalCap: 3,
  harm: 'Physical (Slashing)',
};
const sheet = (melee: number) =>
  validateSheet(
    {
      vitals: { strength: 2, agility: 3, resilience: 2 },
      skills: { melee, ranged: 0, acrobatics: 1 },
      maxVitality: 12,
      maxAD: 6,
      maxMD: 0,
      weapons: [weapon],
      armour: { soak: 1 },
    },
    'sheet',
  );

/** Mira's activation is running in round 1; Orin is her target. */
export function duelState(fightId = 'bench-fight'): NarateerState {
  const events: RuleEvent[] = [
    {
      type: 'FightStarted',
      data: {
        system: 'narateer',
        name: 'Bench',
        dice: { mode: 'seeded', commitment: seedCommitment(SEED), clientSeed: 'bench' },
        options: {},
      },
    },
    { type: 'CombatantJoined', data: { id: 'mira', name: 'Mira', side: 'a', sheet: sheet(3) } },
    { type: 'CombatantJoined', data: { id: 'orin', name: 'Orin', side: 'b', sheet: sheet(2) } },
    { type: 'InitiativeSet', data: { order: ['mira', 'orin'] } },
    { type: 'RoundStarted', data: { round: 1 } },
    { type: 'ActivationStarted', data: { combatantId: 'mira', round: 1 } },
  ];
  return events.reduce(narateer.evolve, narateer.start(fightId));
}

const DECLARE: RuleCommand = {
  type: 'DeclareExchange',
  attackerId: 'mira',
  targetId: 'orin',
  kind: 'melee',
  weaponId: 'sword',
  boost: 1,
};
const RESPOND: RuleCommand = { type: 'RespondToExchange', combatantId: 'orin', response: 'clash', boost: 1 };

/**
 * One full exchange: decide DeclareExchange (a pending response), fold it, decide RespondToExchange
 * (rolls both pools with seeded dice, resolves, wounds, Continuation Checks), fold that.
 * Every exchange starts from the same state; the dice keep drawing, so outcomes vary.
 */
export function runExchanges(n: number, dice: SeededDice, start: NarateerState): { events: number } {
  let events = 0;
  for (let i = 0; i < n; i++) {
    const declared = narateer.decide(start, DECLARE, dice);
    let s = start;
    for (const e of declared) s = narateer.evolve(s, e);
    const resolved = narateer.decide(s, RESPOND, dice);
    for (const e of resolved) s = narateer.evolve(s, e);
    events += declared.length + resolved.length;
  }
  return { events };
}

export interface DecideResult {
  exchangesPerSec: number;
  eventsPerExchange: number;
  drawsPerExchange: number;
  /** The same loop with manual-like constant dice: how much of the time is the seeded dice. */
  seededDiceShare: number;
  runs: number[];
}

/** Best of `rounds` timed runs of `ms` each (one core: this thread only), after a warm-up. */
export function benchDecide(opts: { ms?: number; rounds?: number } = {}): DecideResult {
  const ms = opts.ms ?? 1000;
  const rounds = opts.rounds ?? 5;
  const start = duelState();
  const dice = new SeededDice({ seed: SEED, fightId: 'bench-fight', clientSeed: 'bench', drawsUsed: 0 });
  runExchanges(20000, dice, start);
  const runs: number[] = [];
  let events = 0;
  let exchanges = 0;
  const draws0 = dice.drawsUsed;
  for (let r = 0; r < rounds; r++) {
    let done = 0;
    const t0 = process.hrtime.bigint();
    let elapsed = 0;
    while (elapsed < ms) {
      events += runExchanges(2000, dice, start).events;
      done += 2000;
      elapsed = Number(process.hrtime.bigint() - t0) / 1e6;
    }
    exchanges += done;
    runs.push((done / elapsed) * 1000);
  }
  const draws = dice.drawsUsed - draws0;
  // Isolate the dice: the same draws, alone.
  const diceOnly = new SeededDice({ seed: SEED, fightId: 'bench-fight', clientSeed: 'bench', drawsUsed: 0 });
  const t0 = process.hrtime.bigint();
  const sampleDraws = 200000;
  for (let i = 0; i < sampleDraws; i++) diceOnly.roll(3, 6);
  const perDrawMs = Number(process.hrtime.bigint() - t0) / 1e6 / sampleDraws;
  const best = Math.max(...runs);
  const drawsPerExchange = draws / exchanges;
  return {
    exchangesPerSec: best,
    eventsPerExchange: events / exchanges,
    drawsPerExchange,
    seededDiceShare: (drawsPerExchange * perDrawMs * best) / 1000,
    runs,
  };
}
