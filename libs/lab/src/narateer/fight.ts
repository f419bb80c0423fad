import { DiceSource, RuleCommand, RuleEvent, RuleViolation, SeededDice, seedCommitment } from '@app/rules';
import { ableToAct, combatState, narateer, NarateerState, WoundsAppliedData } from '@app/rules/narateer';
import { FightOutcome } from '../lab-system';
import { renamedViolation } from '../errors';
import { nameText } from '../sides';
import { Declaration, NarateerStrategy, NO_RESPONSE } from './strategy';

/** The two duellists' ids: side 0 plays the row strategy, side 1 the column strategy. */
export const SIDES = ['row', 'col'] as const;

/** A run's fixed setup: the fight after StartFight, decided once and folded (sheets validated by the decider). */
export interface NarateerMatch {
  seed: string;
  roundCap: number;
  setup: NarateerState;
}

export function prepareMatch(
  sheets: readonly Record<string, unknown>[],
  seed: string,
  roundCap: number,
): NarateerMatch {
  const combatants = sheets.map((sheet, i) => ({
    id: SIDES[i],
    name: nameText(sheet.name, SIDES[i]),
    side: SIDES[i],
    sheet: labSheet(sheet),
  }));
  const command: RuleCommand = {
    type: 'StartFight',
    name: 'Combat Lab',
    dice: { mode: 'seeded', commitment: seedCommitment(seed) },
    combatants,
  };
  let events: RuleEvent[];
  try {
    events = narateer.decide(narateer.start('lab'), command, NO_DICE);
  } catch (e) {
    // The decider names `combatants[i].sheet…`; the lab's callers wrote `sheets[i]…`.
    if (e instanceof RuleViolation)
      throw renamedViolation(e, (field) => field.replace(/^combatants\[(\d+)\]\.sheet/, 'sheets[$1]'));
    throw e;
  }
  return { seed, roundCap, setup: events.reduce(narateer.evolve, narateer.start('lab')) };
}

/** The strategies answer for the combatants: a standing responsePolicy would pre-empt them, ASK would wait for a player. */
function labSheet(raw: Record<string, unknown>): Record<string, unknown> {
  const { responsePolicy: _policy, name: _name, ...sheet } = raw;
  return sheet.woundPreference === 'ASK' ? { ...sheet, woundPreference: 'AD_FIRST' } : sheet;
}

const NO_DICE: DiceSource = {
  roll: () => {
    throw new Error('StartFight rolls no dice');
  },
};

/** One whole fight driven through `narateer.decide`/`evolve`; dice from (seed, fightId) via SeededDice (C5). */
export function playFight(
  match: NarateerMatch,
  strategies: readonly [NarateerStrategy, NarateerStrategy],
  fightId: string,
  fightIndex: number,
): FightOutcome {
  const f = new Fight(match, strategies, fightId);
  // Initiative ties that Agility cannot break (N4) alternate by fight index, so neither side is favoured.
  f.run({ type: 'RollInitiative', tieBreak: fightIndex % 2 === 0 ? ['row', 'col'] : ['col', 'row'] });
  while (!f.over()) {
    if (f.state.round >= match.roundCap) return f.outcome('roundCap');
    if (f.stalemate()) return f.outcome('stalemate');
    f.run({ type: 'StartRound' });
    while (f.state.roundOpen && !f.over()) {
      f.run({ type: 'StartActivation' });
      f.activation();
      if (!f.over()) f.run({ type: 'EndActivation' });
    }
  }
  return f.outcome(undefined);
}

class Fight {
  state: NarateerState;
  readonly wounds: [number, number] = [0, 0];
  illegal = 0;
  private readonly dice: SeededDice;

  constructor(
    readonly match: NarateerMatch,
    readonly strategies: readonly [NarateerStrategy, NarateerStrategy],
    fightId: string,
  ) {
    this.state = { ...match.setup, fightId };
    this.dice = new SeededDice({ seed: match.seed, fightId, drawsUsed: 0 });
  }

  run(command: RuleCommand): void {
    for (const e of narateer.decide(this.state, command, this.dice)) this.apply(e);
  }

  /** A strategy's proposal; the decider judges it, and a refusal counts as illegal instead of ending the run. */
  propose(command: RuleCommand): boolean {
    let events: RuleEvent[];
    try {
      events = narateer.decide(this.state, command, this.dice);
    } catch (e) {
      if (!(e instanceof RuleViolation)) throw e;
      this.illegal++;
      return false;
    }
    for (const e of events) this.apply(e);
    return true;
  }

  private apply(e: RuleEvent): void {
    this.state = narateer.evolve(this.state, e);
    if (e.type === 'WoundsApplied') {
      const d = e.data as unknown as WoundsAppliedData;
      this.wounds[d.combatantId === 'row' ? 1 : 0] += d.wounds;
    }
  }

  /** The tempo-holder's exchanges until its strategy passes or the fight is over. */
  activation(): void {
    const me = this.state.activeId as 'row' | 'col';
    const foe = me === 'row' ? 'col' : 'row';
    const strategy = this.strategies[me === 'row' ? 0 : 1];
    this.reload(me);
    const declared: Declaration[] = [];
    const readyAtStart = this.state.combatants[me].ad.ready;
    while (!this.over()) {
      const d = strategy.declare({
        state: this.state,
        me: this.state.combatants[me],
        foe: this.state.combatants[foe],
        declared,
        readyAtStart,
      });
      if (
        !d ||
        !this.propose({
          type: 'DeclareExchange',
          attackerId: me,
          targetId: foe,
          kind: d.kind,
          weaponId: d.weaponId,
          boost: d.boost,
        })
      )
        return;
      declared.push(d);
      if (this.state.pending?.kind === 'exchangeResponse') this.respond(foe);
    }
  }

  private respond(id: 'row' | 'col'): void {
    const x = this.state.exchange!;
    const answer = this.strategies[id === 'row' ? 0 : 1].respond({
      state: this.state,
      me: this.state.combatants[id],
      foe: this.state.combatants[x.attackerId],
      exchange: x,
    });
    if (!this.propose({ type: 'RespondToExchange', combatantId: id, ...answer }))
      this.run({ type: 'RespondToExchange', combatantId: id, ...NO_RESPONSE });
  }

  /** N27: a weapon that needs Loading is loaded in the own activation, for no AD. */
  private reload(id: string): void {
    const c = this.state.combatants[id];
    for (const w of c.sheet.weapons)
      if (w.needsLoading && !c.weapons[w.id].loaded && c.weapons[w.id].ammunition !== 0)
        this.run({ type: 'ReloadWeapon', combatantId: id, weaponId: w.id });
  }

  over(): boolean {
    return this.fallen() !== undefined;
  }

  private fallen(): 'row' | 'col' | undefined {
    if (combatState(this.state.combatants.row) !== 'Active') return 'row';
    if (combatState(this.state.combatants.col) !== 'Active') return 'col';
    return undefined;
  }

  /** Neither side can ever pay an attack again: nothing can change before the round cap. */
  stalemate(): boolean {
    return SIDES.every((id) => {
      const c = this.state.combatants[id];
      const refreshable = c.sheet.maxAD - c.ad.wounded;
      return (
        !ableToAct(c) ||
        !c.sheet.weapons.some((w) => w.baseAttackCost <= refreshable && c.weapons[w.id].ammunition !== 0)
      );
    });
  }

  outcome(draw: 'roundCap' | 'stalemate' | undefined): FightOutcome {
    const rounds = this.state.round;
    const base = { rounds, wounds: this.wounds, illegal: this.illegal };
    const loser = this.fallen();
    if (draw || !loser) return { ...base, winner: undefined, ending: draw ?? 'roundCap' };
    const ending = combatState(this.state.combatants[loser]) === 'Collapsed' ? 'collapsed' : 'withdrawn';
    return { ...base, winner: loser === 'row' ? 1 : 0, ending };
  }
}
