import { RollHandedOver } from '../../core/handed-over';
import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { DiceShortfall } from '../../dice/manual';
import { DiceSource, Roll } from '../../dice/roll';
import { DieKind, NARATEER_DIE_SIDES, WOUND_CONVERSION } from '../data';
import { NarateerCommand } from '../commands';
import {
  ContinuationTrigger,
  DiceCounts,
  ev,
  WoundCalculation,
  WoundedDie,
  WoundsAppliedData,
} from '../events';
import { totalDots } from '../rolls';
import { NarateerCombatant, NarateerState } from '../state';

/** narateer.txt: Wound Conversion (data table, N8); 0 or less causes no Wound. */
export function convertWounds(margin: number): number {
  for (const band of WOUND_CONVERSION) if (margin >= band.minMargin) return band.wounds;
  return 0;
}

type Preferred = (i: number) => DieKind;

/** N9/N28: ASK waits for the wounded unless the allocation came in advance or nothing is to choose. */
export function woundEvents(
  s: NarateerState,
  calc: WoundCalculation,
  advance: DieKind[] | undefined,
  dice: DiceSource,
): RuleEvent[] {
  const c = s.combatants[calc.combatantId];
  if (!advance && c.sheet.woundPreference === 'ASK' && choiceArises(c, calc.wounds))
    return [ev('WoundAllocationRequested', calc)];
  return applyWounds(s, calc, preference(c, advance), dice);
}

export function preference(c: NarateerCombatant, advance?: DieKind[]): Preferred {
  const fallback: DieKind = c.sheet.woundPreference === 'MD_FIRST' ? 'MD' : 'AD';
  return (i) => advance?.[i] ?? fallback;
}

/** narateer.txt: Applying Wounds — Ready before Used regardless of type; the wounded picks AD or MD; each becomes Wounded. */
export function allocate(
  c: NarateerCombatant,
  wounds: number,
  preferred: Preferred,
): { ad: DiceCounts; md: DiceCounts; moved: WoundedDie[] } {
  const ad = { ...c.ad };
  const md = { ...c.md };
  const moved: WoundedDie[] = [];
  for (let i = 0; i < wounds; i++) {
    const from = ad.ready + md.ready > 0 ? 'ready' : ad.used + md.used > 0 ? 'used' : undefined;
    if (!from) break;
    let kind = preferred(i);
    if ((kind === 'AD' ? ad : md)[from] === 0) kind = kind === 'AD' ? 'MD' : 'AD';
    const pool = kind === 'AD' ? ad : md;
    pool[from]--;
    pool.wounded++;
    moved.push({ kind, from });
  }
  return { ad, md, moved };
}

export function choiceArises(c: NarateerCombatant, wounds: number): boolean {
  let choice = false;
  allocate(c, wounds, () => 'AD').moved.forEach((m, i) => {
    const before = allocate(c, i, () => 'AD');
    if (before.ad[m.from] > 0 && before.md[m.from] > 0) choice = true;
  });
  return choice;
}

/** Reduces Vitality per Wound (even with no die left), resolves the state, then the Continuation Check (N10, N18). */
export function applyWounds(
  s: NarateerState,
  calc: WoundCalculation,
  preferred: Preferred,
  dice: DiceSource,
): RuleEvent[] {
  const c = s.combatants[calc.combatantId];
  const { ad, md, moved } = allocate(c, calc.wounds, preferred);
  const vitality = c.vitality - calc.wounds;
  const max = c.sheet.maxVitality;
  const state = vitality <= 0 ? 'Collapsed' : c.withdrawn ? 'Withdrawn' : 'Active';
  const data = Object.assign({}, calc) as WoundsAppliedData;
  data.harmLabel = `${calc.harm.domain} (${calc.harm.type})`;
  data.dice = moved;
  data.vitalityBefore = c.vitality;
  data.vitality = vitality;
  data.ad = ad;
  data.md = md;
  data.state = state;
  const triggers: ContinuationTrigger[] = [];
  if (!c.belowHalf && 2 * vitality < max) {
    data.firstBelowHalf = true;
    triggers.push('belowHalf');
  }
  if (2 * calc.wounds > max) triggers.push('heavyWounds');
  const events = [ev('WoundsApplied', data)];
  if (triggers.length > 0 && state === 'Active') events.push(handedOverCheck(c, triggers, dice, events));
  return events;
}

/** N61: the held rest of a command whose Continuation Check waits for the checking combatant; never sent. */
export const CONTINUATION_CHECK = 'ContinuationCheck';

/**
 * N61: "Only a combatant who remains Active … makes a Continuation Check": the check is its roll. Its faces come with
 * the command (followUpFaces) or, with none, from the checking combatant: the events so far stand and the check
 * alone, with what waits for its result, is held for them (RollHandedOver). Faces given in part stay with the
 * command that gave them (a plain shortfall: C13 holds it whole, as before).
 */
function handedOverCheck(
  c: NarateerCombatant,
  triggers: ContinuationTrigger[],
  dice: DiceSource,
  settled: RuleEvent[],
): RuleEvent {
  try {
    return continuationCheck(c, triggers, dice);
  } catch (e) {
    const none = e instanceof DiceShortfall && e.need.count === c.sheet.vitals.resilience;
    if (!none || e.need.field !== 'followUpFaces') throw e;
    throw new RollHandedOver(
      e,
      [...settled],
      { type: CONTINUATION_CHECK, combatantId: c.id, triggers },
      c.id,
    );
  }
}

/** narateer.txt: Continuation Checks — a Side Roll of Resilience dice; 1+ dots passes (N15, N18). */
export function continuationCheck(
  c: NarateerCombatant,
  triggers: ContinuationTrigger[],
  dice: DiceSource,
): RuleEvent {
  const n = c.sheet.vitals.resilience;
  const roll: Roll =
    n > 0 ? dice.roll(n, NARATEER_DIE_SIDES, 'followUp') : { sides: NARATEER_DIE_SIDES, faces: [] };
  const total = totalDots(roll.faces);
  return ev('ContinuationChecked', {
    combatantId: c.id,
    triggers,
    dice: Math.max(0, n),
    roll,
    dots: total,
    passed: total >= 1,
    state: total >= 1 ? 'Active' : 'Withdrawn',
  });
}

/** N32: the GM applies a spell's or effect's harm as one resolution. */
export function applyWoundsCommand(
  state: NarateerState,
  command: NarateerCommand<'ApplyWounds'>,
  dice: DiceSource,
): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  // The schema gives exactly one of wounds and woundMargin.
  const { woundMargin } = command;
  const wounds = woundMargin === undefined ? (command.wounds ?? 0) : convertWounds(woundMargin);
  const calc: WoundCalculation = { combatantId: id, wounds, harm: command.harm };
  if (woundMargin !== undefined) calc.woundMargin = woundMargin;
  if (command.effect !== undefined) calc.effect = command.effect;
  return woundEvents(state, calc, command.allocation, dice);
}
