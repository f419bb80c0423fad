import { combatantId } from '../../core/lifecycle';
import { RuleEvent } from '../../core/types';
import { ensure } from '../../core/violation';
import { ATTACK_SKILL } from '../data';
import { NarateerCommand } from '../commands';
import { DiceSpentData, ev } from '../events';
import { NarateerState } from '../state';
import { ableToAct, ableToActOtherThanPhysically, findWeapon, proactiveLimit } from './common';

/** N27: loading is done in the own activation, costs no AD and needs ammunition. */
export function reloadWeapon(state: NarateerState, command: NarateerCommand<'ReloadWeapon'>): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const c = state.combatants[id];
  const weapon = findWeapon(c, command.weaponId, 'weaponId');
  ensure(
    weapon.needsLoading,
    'NARATEER_NO_LOADING_NEEDED',
    `narateer.txt: Ranged Exchanges: ${weapon.name} is ready to fire without Loading`,
    'weaponId',
  );
  ensure(
    state.roundOpen && state.activeId === id,
    'NARATEER_NOT_YOUR_ACTIVATION',
    `ruling N27: ${id} reloads during its own activation`,
    'combatantId',
  );
  ensure(ableToAct(c), 'NARATEER_CANNOT_ACT', `ruling N20/N26: ${id} is not able to act`, 'combatantId');
  const ws = c.weapons[weapon.id];
  if (ws.loaded) return [];
  ensure(
    ws.ammunition === undefined || ws.ammunition > 0,
    'NARATEER_NO_AMMUNITION',
    `narateer.txt: Ranged Exchanges: ${weapon.name} has no ammunition to load`,
    'weaponId',
  );
  return [ev('WeaponReloaded', { combatantId: id, weaponId: weapon.id })];
}

/** N33/N43: other actions commit Ready dice; a proactive Melee or Ranged action counts a use (N5). */
export function spendDice(state: NarateerState, command: NarateerCommand<'SpendDice'>): RuleEvent[] {
  const id = combatantId(state, command.combatantId, 'combatantId');
  const c = state.combatants[id];
  const data: DiceSpentData = { combatantId: id, ad: command.ad, md: command.md };
  // N43: only a combatant able to act commits dice to an action; outside its activation too (a power, a reaction).
  // A Paralyzed one "can't take physical actions" only: it may still commit dice to an action that is not physical.
  ensure(
    ableToActOtherThanPhysically(c),
    'NARATEER_CANNOT_ACT',
    `ruling N20/N26/N43: ${id} is not able to act, so it commits no dice`,
    'combatantId',
  );
  ensure(
    data.ad <= c.ad.ready,
    'NARATEER_NOT_ENOUGH_READY_AD',
    `RULINGS.md N3: ${id} has ${c.ad.ready} Ready AD`,
    'ad',
  );
  ensure(
    data.md <= c.md.ready,
    'NARATEER_NOT_ENOUGH_READY_MD',
    `RULINGS.md N3: ${id} has ${c.md.ready} Ready MD`,
    'md',
  );
  if (command.reason !== undefined) data.reason = command.reason;
  if (command.proactiveUse !== undefined) {
    const kind = command.proactiveUse;
    // N43: a proactive Melee or Ranged action (a shove, a trip, a shot) is physical.
    ensure(
      ableToAct(c),
      'NARATEER_CANNOT_ACT',
      `ruling N43: ${id} is Paralyzed ("aware but can't take physical actions"); a proactive ${kind} action is physical`,
      'proactiveUse',
    );
    ensure(
      state.roundOpen && state.activeId === id,
      'NARATEER_NOT_YOUR_TEMPO',
      `narateer.txt: Skill Level In Combat: proactive actions happen during ${id}'s own activation`,
      'proactiveUse',
    );
    const limit = proactiveLimit(c, ATTACK_SKILL[kind]);
    ensure(
      c.uses[kind] < limit,
      'NARATEER_PROACTIVE_LIMIT',
      `narateer.txt: Skill Level In Combat: ${id} has used all ${limit} proactive ${kind} uses of this activation`,
      'proactiveUse',
    );
    data.proactiveUse = kind;
  }
  if (data.ad === 0 && data.md === 0 && !data.proactiveUse) return [];
  return [ev('DiceSpent', data)];
}
