import { RuleEvent } from '../../core/types';
import { run } from '../../core/run';
import { DiceSource } from '../../dice/roll';
import { CRITICAL_FAILURES, SPACE_METRES } from '../data';
import { ev } from '../events';
import { evolve } from '../evolve';
import { distance, neighbours } from '../grid';
import { canStep } from '../map';
import { Weapon } from '../sheet';
import { ArchsoulCombatant, ArchsoulState } from '../state';
import { damageTest, wound } from './damage';
import { canReact, foes, occupant } from './common';
import { AttackInput } from './maneuvers';

export interface CriticalOutcome {
  events: RuleEvent[];
  redirectedTo?: string;
  dropped: boolean;
}

/**
 * archsoul.txt: Critical Failure Tables; S2 (rolled by default, the GM may narrate instead) and
 * S20 (applied where the result is mechanical; "one round" lasts until the combatant's next turn).
 */
export function criticalFailure(state: ArchsoulState, a: ArchsoulCombatant, w: Weapon, t: ArchsoulCombatant, input: AttackInput, dice: DiceSource, action: string): CriticalOutcome {
  const table = w.criticalTable;
  if (input.criticalNarration !== undefined) {
    const text = input.criticalNarration;
    return { events: [ev('CriticalFailureRolled', { combatantId: a.id, weaponId: w.id, table, face: 0, text, narrated: true })], dropped: false };
  }
  const roll = dice.roll(1, 6, 'followUp');
  const entry = CRITICAL_FAILURES[table][roll.faces[0] - 1];
  const r = run(state, evolve);
  const { events, push } = r;
  push(ev('CriticalFailureRolled', { combatantId: a.id, weaponId: w.id, table, roll, face: roll.faces[0], text: entry.text, effect: entry.effect }));
  const out: CriticalOutcome = { events, dropped: false };
  const ws = a.weapons[w.id];
  const e = entry.effect;
  switch (e.kind) {
    case 'drop': {
      if (!a.held.includes(w.id)) break;
      const space = e.at === 'self' ? a.position! : t.position!;
      push(ev('ItemDropped', { combatantId: a.id, itemId: w.id, groundId: `g${r.state().groundCount + 1}`, name: w.name, space, reason: entry.text }));
      out.dropped = w.type === 'thrown';
      break;
    }
    case 'nextAttack':
      push(ev('ConditionApplied', { combatantId: a.id, condition: 'nextAttackHarder', amount: e.amount, untilNextTurn: false, reason: entry.text }));
      break;
    case 'defense':
      push(ev('ConditionApplied', { combatantId: a.id, condition: 'defenseDown', amount: e.amount, untilNextTurn: true, reason: entry.text }));
      break;
    case 'speed':
      push(ev('ConditionApplied', { combatantId: a.id, condition: 'slowed', amount: e.amount, untilNextTurn: true, reason: entry.text }));
      break;
    case 'prone':
      push(ev('ConditionApplied', { combatantId: a.id, condition: 'prone', amount: 1, untilNextTurn: false, reason: entry.text }));
      break;
    case 'reactive':
      // S20: the target reacts only if it could (reach, front arc); there is no action left to prevent.
      if (action !== 'reactive' && canReact(r.state(), r.state().combatants[t.id], a.position!)) {
        push(ev('ReactiveAttackTriggered', { actorId: a.id, trigger: 'criticalFailure', reactorIds: [t.id] }), ev('ReactiveAttackOffered', { actorId: a.id, reactorId: t.id }));
      }
      break;
    case 'weaponDamage': {
      if (!ws) break;
      const roll2 = damageTest(a, w, undefined, input, dice);
      const hp = ws.hp === undefined ? undefined : Math.max(0, ws.hp - roll2.successes);
      push(ev('WeaponChanged', { combatantId: a.id, weaponId: w.id, broken: ws.broken || hp === 0, destroyed: ws.destroyed, jammed: ws.jammed, ...(hp === undefined ? {} : { hp }), reason: `${entry.text}: ${roll2.successes} damage (roll ${roll2.roll.faces.join(',')})` }));
      break;
    }
    case 'jam':
      if (ws) push(ev('WeaponChanged', { combatantId: a.id, weaponId: w.id, broken: ws.broken, destroyed: ws.destroyed, jammed: true, reason: entry.text }));
      break;
    case 'repair':
      if (ws) push(ev('WeaponChanged', { combatantId: a.id, weaponId: w.id, broken: true, destroyed: ws.destroyed, jammed: ws.jammed, reason: entry.text }));
      break;
    case 'selfDamage':
      push(wound(r.state(), a.id, e.amount, entry.text));
      break;
    case 'selfDamageRoll': {
      const roll2 = damageTest(a, w, a, input, dice);
      push(wound(r.state(), a.id, Math.min(e.max, roll2.successes), entry.text, roll2));
      break;
    }
    case 'area': {
      // S7: radius R metres covers every space within R / 2.
      const reach = Math.floor(e.radiusMetres / SPACE_METRES);
      for (const id of r.state().joined) {
        const c = r.state().combatants[id];
        if (c.position && distance(r.state().map.grid, c.position, a.position!) <= reach) push(wound(r.state(), id, e.damage, entry.text));
      }
      if (ws) push(ev('WeaponChanged', { combatantId: a.id, weaponId: w.id, broken: true, destroyed: e.weapon === 'destroyed', jammed: ws.jammed, reason: entry.text }));
      break;
    }
    case 'redirect': {
      const near = e.to === 'adjacent' ? 1 : Math.floor(6 / SPACE_METRES);
      const candidates = r.state().joined.filter((id) => {
        const c = r.state().combatants[id];
        if (id === t.id || id === a.id || !c.position || distance(r.state().map.grid, c.position, t.position!) > near) return false;
        return e.to === 'adjacent' ? true : !foes(c, a);
      });
      if (candidates.length === 0) break;
      const pick = candidates.length === 1 ? candidates[0] : candidates[dice.roll(1, candidates.length, 'followUp').faces[0] - 1];
      const victim = r.state().combatants[pick];
      const roll2 = damageTest(a, w, victim, input, dice);
      push(wound(r.state(), pick, roll2.successes, `${entry.text} (${pick})`, roll2));
      out.redirectedTo = pick;
      break;
    }
    case 'drain':
      push(ev('DrainSuffered', { combatantId: a.id, amount: e.amount, total: a.drain + e.amount }));
      break;
    case 'soulpower':
      push(ev('SoulpowerLowered', { combatantId: a.id, amount: e.amount, total: a.soulpowerLoss + e.amount }));
      break;
    case 'shift': {
      const here = a.position!;
      const options = neighbours(r.state().map.grid, here).filter((n) => canStep(r.state().map, here, n) && !occupant(r.state(), n, a.id));
      options.sort((p, q) => distance(r.state().map.grid, p, t.position!) - distance(r.state().map.grid, q, t.position!));
      if (options.length > 0 && distance(r.state().map.grid, options[0], t.position!) < distance(r.state().map.grid, here, t.position!)) {
        push(ev('Moved', { combatantId: a.id, action: 'shift', path: [options[0]], from: here, to: options[0], facing: a.facing, distance: 1 }));
      }
      break;
    }
  }
  return out;
}

