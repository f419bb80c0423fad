import { RuleCommand, RuleEvent } from '@app/rules';
import { archsoul, ArchsoulState, ArchsoulView } from '@app/rules/archsoul';
import { decideSetup, Driver } from '../driver';
import { FightOutcome } from '../lab-system';
import { LabInputError } from '../errors';
import { agreed, nameOf } from '../sides';
import { ArchsoulStrategy, ArchsoulTurn } from './strategy';

/** Side 0 (the row strategy) is the heroes' party, side 1 (the column strategy) the GM's `enemies` (S16). */
export const SIDES = ['row', 'col'] as const;
type Side = (typeof SIDES)[number];
const PARTY: Record<Side, string> = { row: 'heroes', col: 'enemies' };

export interface ArchsoulMatch {
  seed: string;
  roundCap: number;
  setup: ArchsoulState;
}

/** Keys of a sheet entry that the lab reads itself; the rest is the Archsoul sheet. */
const LAB_KEYS = ['name', 'position', 'facing', 'map'];

/**
 * Each sheet entry is an Archsoul sheet plus `name?`, `position`, `facing` and an optional battle `map` (either entry
 * may carry it; when both do they must agree): StartFight, SetMap, PlaceCombatant, all through the decider.
 */
export function prepareMatch(
  sheets: readonly Record<string, unknown>[],
  seed: string,
  roundCap: number,
): ArchsoulMatch {
  const combatants = sheets.map((raw, i) => {
    const sheet = Object.fromEntries(Object.entries(raw).filter(([k]) => !LAB_KEYS.includes(k)));
    return { id: SIDES[i], name: nameOf(raw, SIDES[i]), side: PARTY[SIDES[i]], sheet };
  });
  const then: RuleCommand[] = [];
  const map = agreed(sheets, 'map');
  if (map !== undefined) then.push({ ...(map as object), type: 'SetMap' });
  const placed = then.length + 1;
  sheets.forEach((raw, i) => {
    if (raw.position === undefined)
      throw new LabInputError(
        'LAB_SHEETS_INVALID',
        'an Archsoul sheet entry needs a starting position {x, y} on the battle map',
        `sheets[${i}].position`,
      );
    then.push({
      type: 'PlaceCombatant',
      combatantId: SIDES[i],
      position: raw.position,
      ...(raw.facing !== undefined ? { facing: raw.facing } : {}),
    });
  });
  const rename = (field: string, index: number) => {
    if (index === 0) return field.replace(/^combatants\[(\d+)\]\.sheet/, 'sheets[$1]');
    if (index >= placed) return `sheets[${index - placed}].${field}`;
    const which = sheets[0].map !== undefined ? 0 : 1;
    return `sheets[${which}].map${field ? `.${field}` : ''}`;
  };
  const setup = decideSetup(
    archsoul,
    seed,
    { type: 'StartFight', name: 'Combat Lab', combatants },
    then,
    rename,
  );
  return { seed, roundCap, setup };
}

/** Proposals per turn, and answers per held action, before the lab ends them: nothing a strategy proposes can hang a run. */
const MAX_STEPS = 12;
const MAX_ANSWERS = 20;

/** One whole fight through `archsoul.decide`/`evolve`: phases, AP, movement and reactive attacks played for real. */
export function playFight(
  match: ArchsoulMatch,
  strategies: readonly [ArchsoulStrategy, ArchsoulStrategy],
  fightId: string,
  fightIndex: number,
): FightOutcome {
  const f = new ArchsoulFight(match, strategies, fightId);
  // A tie the rules leave to the GM (C10) alternates with the fight index, so neither side is favoured.
  f.run({ type: 'RollInitiative', tieBreak: fightIndex % 2 === 0 ? ['row', 'col'] : ['col', 'row'] });
  while (!f.over()) {
    if (f.state.round >= match.roundCap) return f.outcome('roundCap');
    f.run({ type: 'StartRound' });
    while (f.state.roundOpen && !f.over()) {
      const id = SIDES.find((s) => f.state.combatants[s].inTurn);
      if (!id) {
        f.run({ type: 'EndRound' });
        break;
      }
      f.turn(id);
      if (!f.over() && f.state.combatants[id].inTurn) f.run({ type: 'EndTurn', combatantId: id });
    }
  }
  return f.outcome(undefined);
}

class ArchsoulFight {
  readonly wounds: [number, number] = [0, 0];
  private readonly d: Driver<ArchsoulState>;

  constructor(
    match: ArchsoulMatch,
    private readonly strategies: readonly [ArchsoulStrategy, ArchsoulStrategy],
    fightId: string,
  ) {
    this.d = new Driver(archsoul, match.setup, match.seed, fightId, (e) => this.count(e));
  }

  get state(): ArchsoulState {
    return this.d.state;
  }

  run(command: RuleCommand): void {
    this.d.run(command);
  }

  private count(e: RuleEvent): void {
    if (e.type !== 'WoundsApplied') return;
    const d = e.data as { combatantId: string; hpBefore: number; hp: number };
    if (d.combatantId === 'row' || d.combatantId === 'col')
      this.wounds[d.combatantId === 'row' ? 1 : 0] += d.hpBefore - d.hp;
  }

  private strategy(id: Side): ArchsoulStrategy {
    return this.strategies[SIDES.indexOf(id)];
  }

  private turnView(id: Side): ArchsoulTurn {
    const view = archsoul.view(this.state) as unknown as ArchsoulView;
    const other: Side = id === 'row' ? 'col' : 'row';
    return {
      view,
      me: view.combatants.find((c) => c.id === id)!,
      foe: view.combatants.find((c) => c.id === other)!,
      sheet: this.state.combatants[id].sheet,
      foeSheet: this.state.combatants[other].sheet,
    };
  }

  /** An open turn: the strategy proposes until it passes, is refused, its turn closes or the fight ends. */
  turn(id: Side): void {
    for (let step = 0; step < MAX_STEPS && !this.over() && this.state.combatants[id].inTurn; step++) {
      const command = this.strategy(id).next(this.turnView(id));
      if (!command || !this.d.propose(command)) return;
      this.answerPending();
    }
  }

  /**
   * S18: an action held for reactive attacks: each offered reactor's strategy answers (a refused answer
   * becomes a decline), then the actor performs the held action (or abandons it when the decider refuses it now).
   */
  private answerPending(): void {
    for (let n = 0; n < MAX_ANSWERS && this.state.pending && !this.over(); n++) {
      const p = this.state.pending;
      const who = p.awaiting as Side;
      if (p.kind === 'reactiveAttack') {
        const answer = this.strategy(who).react?.(this.turnView(who)) ?? {
          type: 'DeclineReactiveAttack',
          combatantId: who,
        };
        if (!this.d.propose(answer)) this.run({ type: 'DeclineReactiveAttack', combatantId: who });
      } else if (p.kind === 'resumeAction') {
        if (!this.d.attempt({ type: 'ResumeAction', combatantId: who }))
          this.run({ type: 'ResumeAction', combatantId: who, abandon: true });
      } else throw new Error(`Combat Lab: archsoul left a ${p.kind} decision the lab cannot answer`);
    }
  }

  private loser(): Side | undefined {
    return SIDES.find((s) => this.state.combatants[s].hp <= 0);
  }

  over(): boolean {
    return this.loser() !== undefined;
  }

  /** S11: at 0 HP a combatant is Down (counted as collapsed); there is no withdrawal in Archsoul. */
  outcome(draw: 'roundCap' | undefined): FightOutcome {
    const base = { rounds: this.state.round, wounds: this.wounds, illegal: this.d.illegal };
    const loser = this.loser();
    if (draw || !loser) return { ...base, winner: undefined, ending: 'roundCap' };
    return { ...base, winner: loser === 'row' ? 1 : 0, ending: 'collapsed' };
  }
}
