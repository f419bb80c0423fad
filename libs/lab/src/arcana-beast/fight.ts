import { RuleCommand, RuleEvent } from '@app/rules';
import { arcanaBeast, ArcanaBeastState, ArcanaBeastView, ArcanaEventData } from '@app/rules/arcana-beast';
import { BANDS, TAGS } from '@app/rules/arcana-beast';
import { decideSetup, Driver } from '../driver';
import { FightOutcome } from '../lab-system';
import { LabInputError } from '../errors';
import { agreed, nameOf, nameText, objectAt } from '../sides';
import { interceptWhenInDanger } from './options';
import { ArcanaStrategy, ArcanaTurn, BeastView, BinderView } from './strategy';

/** Side 0 plays the row strategy, side 1 the column strategy; each side's beast has the side's id, its Binder `<side>-binder`. */
export const SIDES = ['row', 'col'] as const;
type Side = (typeof SIDES)[number];
export const binderOf = (side: Side) => `${side}-binder`;

/** A run's fixed setup: the fight after StartFight and the GM's placing, decided once and folded. */
export interface ArcanaMatch {
  seed: string;
  roundCap: number;
  setup: ArcanaBeastState;
}

/** A refusal of the k-th joined combatant names the sheet entry it came from: `sheets[i].beast…` or `sheets[i].binder…`. */
type Origin = { side: number; part: 'beast' | 'binder' };

/**
 * Each sheet entry is one side: `{ name?, beast, binder?, tags?, band? }` (docs/lab.md). The lab links the Binder to
 * its beast, adds the GM's positioning tags (SetTag) and the starting band (SetBand), all through the decider.
 */
export function prepareMatch(
  sheets: readonly Record<string, unknown>[],
  seed: string,
  roundCap: number,
): ArcanaMatch {
  const combatants: Record<string, unknown>[] = [];
  const origins: Origin[] = [];
  const then: RuleCommand[] = [];
  sheets.forEach((raw, i) => {
    const side = SIDES[i];
    const { name: beastName, ...beast } = objectAt(raw.beast, `sheets[${i}].beast`);
    combatants.push({ id: side, name: nameText(beastName, nameOf(raw, side)), side, sheet: beast });
    origins.push({ side: i, part: 'beast' });
    if (raw.binder !== undefined) {
      const { name: binderName, ...binder } = objectAt(raw.binder, `sheets[${i}].binder`);
      combatants.push({
        id: binderOf(side),
        name: nameText(binderName, `${nameOf(raw, side)}’s Binder`),
        side,
        sheet: { ...binder, beastId: side },
      });
      origins.push({ side: i, part: 'binder' });
    }
    const tags = raw.tags ?? [];
    if (!Array.isArray(tags))
      throw new LabInputError(
        'LAB_SHEETS_INVALID',
        'tags must be a list of positioning tags',
        `sheets[${i}].tags`,
      );
    tags.forEach((tag, j) => {
      if (!(TAGS as readonly unknown[]).includes(tag))
        throw new LabInputError(
          'LAB_SHEETS_INVALID',
          `a positioning tag is one of ${TAGS.join(', ')}`,
          `sheets[${i}].tags[${j}]`,
        );
      then.push({ type: 'SetTag', combatantId: side, tag });
    });
  });
  const band = agreed(sheets, 'band');
  if (band !== undefined && !(BANDS as readonly unknown[]).includes(band))
    throw new LabInputError('LAB_SHEETS_INVALID', `band is one of ${BANDS.join(', ')}`, 'sheets[0].band');
  if (band !== undefined) then.push({ type: 'SetBand', aId: 'row', bId: 'col', band });
  const rename = (field: string) => {
    const m = /^combatants\[(\d+)\]\.sheet(.*)$/.exec(field);
    if (m) {
      const o = origins[Number(m[1])];
      return `sheets[${o.side}].${o.part}${m[2]}`;
    }
    return field;
  };
  const setup = decideSetup(
    arcanaBeast,
    seed,
    { type: 'StartFight', name: 'Combat Lab', combatants },
    then,
    rename,
  );
  return { seed, roundCap, setup };
}

/** Proposals per turn before the lab ends it: a strategy that keeps proposing commands that change nothing cannot hang a run. */
const MAX_STEPS = 12;

/** One whole fight through `arcanaBeast.decide`/`evolve`; dice from (seed, fightId) via SeededDice (C5). */
export function playFight(
  match: ArcanaMatch,
  strategies: readonly [ArcanaStrategy, ArcanaStrategy],
  fightId: string,
  fightIndex: number,
): FightOutcome {
  const f = new ArcanaFight(match, strategies, fightId);
  // arcana-beast.txt: "Ties: GM decides": the GM alternates with the fight index, so neither side is favoured.
  f.run({ type: 'RollInitiative', tieBreak: fightIndex % 2 === 0 ? ['row', 'col'] : ['col', 'row'] });
  while (!f.over()) {
    if (f.state.round >= match.roundCap) return f.outcome('roundCap');
    f.run({ type: 'StartRound' });
    while (f.state.roundOpen && !f.over()) {
      f.run({ type: 'StartActivation' });
      f.turn();
      if (!f.over()) f.run({ type: 'EndActivation' });
    }
  }
  return f.outcome(undefined);
}

class ArcanaFight {
  readonly wounds: [number, number] = [0, 0];
  private readonly d: Driver<ArcanaBeastState>;

  constructor(
    match: ArcanaMatch,
    private readonly strategies: readonly [ArcanaStrategy, ArcanaStrategy],
    fightId: string,
  ) {
    this.d = new Driver(arcanaBeast, match.setup, match.seed, fightId, (e) => this.count(e));
  }

  get state(): ArcanaBeastState {
    return this.d.state;
  }

  run(command: RuleCommand): void {
    this.d.run(command);
  }

  private count(e: RuleEvent): void {
    if (e.type !== 'DamageDealt') return;
    const d = e.data as unknown as ArcanaEventData<'DamageDealt'>;
    this.wounds[d.combatantId.startsWith('row') ? 1 : 0] += d.hpBefore - d.hp;
  }

  /** The shared turn running now: the strategy proposes until it passes, is refused, or the fight ends. */
  turn(): void {
    const beastId = this.state.turn?.beastId as Side | undefined;
    if (!beastId) return;
    const strategy = this.strategies[SIDES.indexOf(beastId)];
    for (let step = 0; step < MAX_STEPS && !this.over(); step++) {
      const command = strategy.next(this.turnView(beastId));
      if (!command || !this.d.propose(command)) return;
      this.answerPending();
    }
  }

  private turnView(side: Side): ArcanaTurn {
    const view = arcanaBeast.view(this.state) as unknown as ArcanaBeastView;
    const other: Side = side === 'row' ? 'col' : 'row';
    const find = (id: string) => view.combatants.find((c) => c.id === id);
    return {
      view,
      turn: view.turn!,
      me: find(side) as BeastView,
      binder: find(binderOf(side)) as BinderView | undefined,
      foe: find(other) as BeastView,
      foeBinder: find(binderOf(other)) as BinderView | undefined,
    };
  }

  /** A22: an attack on a Binder waits for its beast's Intercept; the beast's strategy answers. */
  private answerPending(): void {
    const pending = this.state.pending;
    if (!pending) return;
    if (pending.kind !== 'intercept')
      throw new Error(`Combat Lab: arcana-beast left a ${pending.kind} decision the lab cannot answer`);
    const beastId = pending.awaiting as Side;
    const view = arcanaBeast.view(this.state) as unknown as ArcanaBeastView;
    const find = (id: string) => view.combatants.find((c) => c.id === id);
    const attacker = find(this.state.pendingAttack!.attackerId) as BeastView;
    const strategy = this.strategies[SIDES.indexOf(beastId)];
    const call = {
      view,
      me: find(beastId) as BeastView,
      binder: find(binderOf(beastId)) as BinderView,
      attacker,
    };
    const yes = (strategy.intercept ?? interceptWhenInDanger)(call);
    if (!this.d.propose({ type: 'Intercept', combatantId: beastId, intercept: yes }))
      this.run({ type: 'Intercept', combatantId: beastId, intercept: false });
  }

  /** A side loses when its beast is out of the encounter: Knocked Out (collapsed) or called back (withdrawn). */
  private loser(): Side | undefined {
    return SIDES.find((s) => this.state.combatants[s].knockedOut || this.state.combatants[s].inVessel);
  }

  over(): boolean {
    return this.loser() !== undefined;
  }

  outcome(draw: 'roundCap' | undefined): FightOutcome {
    const base = { rounds: this.state.round, wounds: this.wounds, illegal: this.d.illegal };
    const loser = this.loser();
    if (draw || !loser) return { ...base, winner: undefined, ending: 'roundCap' };
    return {
      ...base,
      winner: loser === 'row' ? 1 : 0,
      ending: this.state.combatants[loser].knockedOut ? 'collapsed' : 'withdrawn',
    };
  }
}
