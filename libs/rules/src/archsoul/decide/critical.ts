import { RuleEvent } from '../../core/types';
import { Run, run } from '../../core/run';
import { DiceSource } from '../../dice/roll';
import { CRITICAL_FAILURES, CriticalEffect, SPACE_METRES } from '../data';
import { ev } from '../events';
import { evolve } from '../evolve';
import { distance, neighbours, Space } from '../grid';
import { canStep } from '../map';
import { Modifier } from '../rolls';
import { Weapon } from '../sheet';
import { ArchsoulCombatant, ArchsoulState } from '../state';
import { damageTest, metalLimb, wound } from './damage';
import { canReact, foes, occupant } from './common';
import { AttackInput } from './maneuvers';
import { knockedDown } from './prone';
import { knockdown } from './modifiers';

export interface CriticalOutcome {
  events: RuleEvent[];
  redirectedTo?: string;
  dropped: boolean;
}

/** The attack whose roll critically failed: who attacked whom with which weapon, as which action, with the command's choices. */
export interface Fumble {
  attacker: ArchsoulCombatant;
  weapon: Weapon;
  /** S57: an area's target is whoever stands where it was aimed, if anyone. */
  target?: ArchsoulCombatant;
  /** Where the attack was aimed: the target's space, an area's centre or a Cleave's first space (S57). */
  aim: Space;
  input: AttackInput;
  action: string;
  /** The attack's own damage-roll modifiers (a special attack, its maneuvers) and extra dice (Charge), for a hit redirected. */
  damageMods?: Modifier[];
  bonusDice?: number;
}

/** What applying a rolled entry works with: the run so far, the fumble, the dice, the entry's text and the outcome being built. */
interface Mishap {
  r: Run<ArchsoulState>;
  f: Fumble;
  dice: DiceSource;
  text: string;
  out: CriticalOutcome;
}

/**
 * archsoul.txt: Critical Failure Tables; S2 (rolled by default, the GM may narrate instead) and
 * S20 (applied where the result is mechanical; "one round" lasts until the combatant's next turn).
 */
export function criticalFailure(state: ArchsoulState, f: Fumble, dice: DiceSource): CriticalOutcome {
  const { attacker: a, weapon: w, input } = f;
  const table = w.criticalTable;
  if (input.criticalNarration !== undefined) {
    const text = input.criticalNarration;
    return {
      events: [
        ev('CriticalFailureRolled', {
          combatantId: a.id,
          weaponId: w.id,
          table,
          face: 0,
          text,
          narrated: true,
        }),
      ],
      dropped: false,
    };
  }
  const roll = dice.roll(1, 6, 'followUp');
  const entry = CRITICAL_FAILURES[table][roll.faces[0] - 1];
  const r = run(state, evolve);
  r.push(
    ev('CriticalFailureRolled', {
      combatantId: a.id,
      weaponId: w.id,
      table,
      roll,
      face: roll.faces[0],
      text: entry.text,
      effect: entry.effect,
    }),
  );
  const out: CriticalOutcome = { events: r.events, dropped: false };
  applyEffect({ r, f, dice, text: entry.text, out }, entry.effect);
  return out;
}

/** The rolled entry's effect, by what it falls on: the attacker, its weapon, whoever it hurts, or where it stands. */
function applyEffect(m: Mishap, e: CriticalEffect): void {
  switch (e.kind) {
    case 'nextAttack':
    case 'defense':
    case 'speed':
    case 'prone':
    case 'drain':
    case 'soulpower':
      return afflictAttacker(m, e);
    case 'drop':
    case 'weaponDamage':
    case 'jam':
    case 'repair':
      return harmWeapon(m, e);
    case 'selfDamage':
    case 'selfDamageRoll':
    case 'area':
    case 'redirect':
      return hurt(m, e);
    case 'reactive':
      return openToReaction(m);
    case 'shift':
      return shiftTowardTarget(m);
    default: {
      const unhandled: never = e;
      void unhandled;
    }
  }
}

/** Conditions, drain and lost soulpower on the attacker. */
function afflictAttacker(
  { r, f, text }: Mishap,
  e: Extract<CriticalEffect, { kind: 'nextAttack' | 'defense' | 'speed' | 'prone' | 'drain' | 'soulpower' }>,
): void {
  const { push } = r;
  const a = f.attacker;
  switch (e.kind) {
    case 'nextAttack':
      push(
        ev('ConditionApplied', {
          combatantId: a.id,
          condition: 'nextAttackHarder',
          amount: e.amount,
          untilNextTurn: false,
          reason: text,
        }),
      );
      return;
    case 'defense':
      push(
        ev('ConditionApplied', {
          combatantId: a.id,
          condition: 'defenseDown',
          amount: e.amount,
          untilNextTurn: true,
          reason: text,
        }),
      );
      return;
    case 'speed':
      push(
        ev('ConditionApplied', {
          combatantId: a.id,
          condition: 'slowed',
          amount: e.amount,
          untilNextTurn: true,
          reason: text,
        }),
      );
      return;
    case 'prone':
      push(...knockedDown(r.state().combatants[a.id], text));
      return;
    case 'drain':
      push(ev('DrainSuffered', { combatantId: a.id, amount: e.amount, total: a.drain + e.amount }));
      return;
    case 'soulpower':
      push(
        ev('SoulpowerLowered', { combatantId: a.id, amount: e.amount, total: a.soulpowerLoss + e.amount }),
      );
      return;
  }
}

/** The weapon dropped, damaged, jammed or in need of repair. */
function harmWeapon(
  { r, f, dice, text, out }: Mishap,
  e: Extract<CriticalEffect, { kind: 'drop' | 'weaponDamage' | 'jam' | 'repair' }>,
): void {
  const { push } = r;
  const { attacker: a, weapon: w, aim, input } = f;
  const ws = a.weapons[w.id];
  switch (e.kind) {
    case 'drop': {
      if (!a.held.includes(w.id)) return;
      const space = e.at === 'self' ? a.position! : aim;
      push(
        ev('ItemDropped', {
          combatantId: a.id,
          itemId: w.id,
          groundId: `g${r.state().groundCount + 1}`,
          name: w.name,
          space,
          reason: text,
        }),
      );
      out.dropped = w.type === 'thrown';
      return;
    }
    case 'weaponDamage': {
      if (!ws) return;
      const roll2 = damageTest(a, w, undefined, input, dice);
      // ruling S74: damage to an item counts its hardness, as a Shatter's does (Shatter: "account for hardness").
      const damage = Math.max(0, roll2.successes - w.hardness);
      const hp = ws.hp === undefined ? undefined : Math.max(0, ws.hp - damage);
      push(
        ev('WeaponChanged', {
          combatantId: a.id,
          weaponId: w.id,
          broken: ws.broken || hp === 0,
          destroyed: ws.destroyed,
          jammed: ws.jammed,
          ...(hp === undefined ? {} : { hp }),
          reason: `${text}: ${damage} damage (roll ${roll2.roll.faces.join(',')}, ${roll2.successes} less hardness ${w.hardness}, ruling S74)`,
        }),
      );
      return;
    }
    case 'jam':
      if (ws)
        push(
          ev('WeaponChanged', {
            combatantId: a.id,
            weaponId: w.id,
            broken: ws.broken,
            destroyed: ws.destroyed,
            jammed: true,
            reason: text,
          }),
        );
      return;
    case 'repair':
      if (ws)
        push(
          ev('WeaponChanged', {
            combatantId: a.id,
            weaponId: w.id,
            broken: true,
            destroyed: ws.destroyed,
            jammed: ws.jammed,
            reason: text,
          }),
        );
      return;
  }
}

/** Damage: to the attacker, to everyone in an area, or to someone near the target instead. */
function hurt(
  { r, f, dice, text, out }: Mishap,
  e: Extract<CriticalEffect, { kind: 'selfDamage' | 'selfDamageRoll' | 'area' | 'redirect' }>,
): void {
  const { push } = r;
  const { attacker: a, weapon: w, target: t, aim, input } = f;
  switch (e.kind) {
    case 'selfDamage':
      push(wound(r.state(), a.id, e.amount, text));
      return;
    case 'selfDamageRoll': {
      // archsoul.txt: Unarmed: "The damage roll is increased by 1 if you are wearing metal armor on the limb you are
      // attacking with" (S22, S72): the damage rolled against yourself is that roll, so the 1 counts before the maximum.
      // Ruling S99: "Hit incorrectly, rolling damage against yourself" rolls the attack's own damage roll, so it keeps
      // that attack's damage modifiers (Quick Attack's +1, Reckless Attack's -1…), as the bow table's "is hit instead"
      // does; only "Strike the ground, rolling normal damage" says "normal".
      const roll2 = damageTest(a, w, a.sheet.armour?.type, input, dice, f.damageMods, f.bonusDice);
      const bonus = metalLimb(a, w, input);
      push(wound(r.state(), a.id, Math.min(e.max, roll2.successes + bonus), text, roll2, bonus));
      return;
    }
    case 'area': {
      // S7: radius R metres covers every space within R / 2.
      const reach = Math.floor(e.radiusMetres / SPACE_METRES);
      for (const id of r.state().joined) {
        const c = r.state().combatants[id];
        if (c.position && distance(r.state().map.grid, c.position, a.position!) <= reach)
          push(wound(r.state(), id, e.damage, text));
      }
      const ws = a.weapons[w.id];
      if (ws)
        push(
          ev('WeaponChanged', {
            combatantId: a.id,
            weaponId: w.id,
            broken: true,
            destroyed: e.weapon === 'destroyed',
            jammed: ws.jammed,
            reason: text,
          }),
        );
      return;
    }
    case 'redirect': {
      const near = e.to === 'adjacent' ? 1 : Math.floor(6 / SPACE_METRES);
      const candidates = r.state().joined.filter((id) => {
        const c = r.state().combatants[id];
        if (
          id === t?.id ||
          id === a.id ||
          !c.position ||
          distance(r.state().map.grid, c.position, aim) > near
        )
          return false;
        return e.to === 'adjacent' ? true : !foes(c, a);
      });
      if (candidates.length === 0) return;
      const pick =
        candidates.length === 1
          ? candidates[0]
          : candidates[dice.roll(1, candidates.length, 'followUp').faces[0] - 1];
      const victim = r.state().combatants[pick];
      out.redirectedTo = pick;
      // archsoul.txt: Knockdown: "The damage your attack would have done is ignored": a Knockdown's hit, redirected, is
      // a knockdown attempt on the one hit instead (its Athletics/Resolve roll, then the attack's damage roll).
      if (input.knockdown) {
        push(...knockdown(r.state(), a, w, victim, input, f.damageMods ?? [], dice, f.bonusDice));
        return;
      }
      // Bow table: "is hit instead": the attack's hit, so its damage roll is the attack's own, with its modifiers.
      const roll2 = damageTest(a, w, victim.sheet.armour?.type, input, dice, f.damageMods, f.bonusDice);
      // archsoul.txt: Unarmed: "The damage roll is increased by 1" with metal on the limb (S22), wherever the hit lands.
      const bonus = metalLimb(a, w, input);
      push(wound(r.state(), pick, roll2.successes + bonus, `${text} (${pick})`, roll2, bonus));
      return;
    }
  }
}

/**
 * S20: the target reacts only if it could (reach, front arc); there is no action left to prevent, so no prevention roll.
 * A reactive attack's mishap opens this reaction inside the sequence it answered (`interrupts`), which resumes after it.
 */
function openToReaction({ r, f }: Mishap): void {
  const { attacker: a, target: t } = f;
  if (!t || !canReact(r.state(), r.state().combatants[t.id], a.position!)) return;
  const outer = r.state().reaction;
  r.push(
    ev('ReactiveAttackTriggered', {
      actorId: a.id,
      trigger: 'criticalFailure',
      reactorIds: [t.id],
      ...(outer ? { interrupts: outer.actorId } : {}),
    }),
    ev('ReactiveAttackOffered', { actorId: a.id, reactorId: t.id }),
  );
}

/** The attacker shifts one free space closer to the target, if there is one. */
function shiftTowardTarget({ r, f }: Mishap): void {
  const { attacker: a, aim } = f;
  const here = a.position!;
  const options = neighbours(r.state().map.grid, here).filter(
    (n) => canStep(r.state().map, here, n) && !occupant(r.state(), n, a.id),
  );
  options.sort((p, q) => distance(r.state().map.grid, p, aim) - distance(r.state().map.grid, q, aim));
  if (
    options.length > 0 &&
    distance(r.state().map.grid, options[0], aim) < distance(r.state().map.grid, here, aim)
  ) {
    r.push(
      ev('Moved', {
        combatantId: a.id,
        action: 'shift',
        path: [options[0]],
        from: here,
        to: options[0],
        facing: a.facing,
        distance: 1,
      }),
    );
  }
}
