import { bad } from '../../core/fields';
import { ensure } from '../../core/violation';
import { DEFAULT_CRITICAL_TABLE, SPACE_METRES } from '../data';
import { liftingRow, usableAsWeapon } from '../rolls';
import { Weapon } from '../sheet';
import { ArchsoulCombatant, hasCondition } from '../state';

/**
 * archsoul.txt: Being Grappled: "you may not attack with a weapon"; S48: melee, ranged and thrown attacks
 * (anything thrown at a target is a thrown weapon attack) are weapon attacks; unarmed attacks and soul magic are not,
 * and take the grapple roll of any other action (S33).
 */
export function checkNotGrappledWeapon(a: ArchsoulCombatant, w: Weapon, field: string): void {
  ensure(
    w.type === 'unarmed' || w.soulMagic || !hasCondition(a, 'grappled'),
    'ARCHSOUL_GRAPPLED',
    `archsoul.txt: Being Grappled: ${a.id} may not attack with a weapon (${w.name}; ruling S48)`,
    field,
  );
}

/** archsoul.txt: Lifting, Throwing, and Improvised Weapons: "If the Athletics Difference is 0 or less, the object cannot be used as a weapon". */
export function checkLiftable(c: ArchsoulCombatant, w: Weapon): void {
  ensure(
    usableAsWeapon(c, w),
    'ARCHSOUL_TOO_HEAVY',
    `archsoul.txt: Lifting, Throwing, and Improvised Weapons: ${c.id}'s Athletics ${c.sheet.attributes.athletics} does not exceed ${w.name}'s lifting Athletics ${w.liftingAthletics}`,
    'weaponId',
  );
}

/**
 * archsoul.txt: Unarmed: "The default mode of attack for an unarmed strike is a simple punch - anything else increases
 * the difficulty": `unarmedStyle` describes an unarmed attack only; with any other weapon it would be ignored.
 */
export function checkUnarmedStyle(w: Weapon, style: string | undefined): void {
  if (style !== undefined && w.type !== 'unarmed')
    bad(
      'unarmedStyle',
      `is the style of an unarmed attack; ${w.name} is a ${w.type} weapon (archsoul.txt: Unarmed)`,
    );
}

/**
 * archsoul.txt: Unarmed: "The damage roll is increased by 1 if you are wearing metal armor on the limb you are attacking
 * with": `limbArmoured` names the limb of an unarmed attack (S22, S72); with any other weapon it would be ignored (S100).
 */
export function checkLimbArmoured(w: Weapon, limbArmoured: boolean | undefined): void {
  if (limbArmoured !== undefined && w.type !== 'unarmed')
    bad(
      'limbArmoured',
      `is the armour of an unarmed attack’s limb; ${w.name} is a ${w.type} weapon (archsoul.txt: Unarmed, ruling S100)`,
    );
}

export function thrownWeapon(c: ArchsoulCombatant, itemId: string): Weapon {
  const w = c.sheet.weapons.find((x) => x.id === itemId);
  const item = w ?? c.sheet.items.find((x) => x.id === itemId);
  ensure(
    item && c.held.includes(itemId),
    'ARCHSOUL_ITEM_NOT_HELD',
    `archsoul.txt: Throw an Item: "an item you are holding"; ${c.id} holds no ${itemId}`,
    'itemId',
  );
  const t0 = item.thrown;
  ensure(t0, 'ARCHSOUL_NOT_THROWABLE', `${item.name} has no throwing ranges on the sheet`, 'itemId');
  // archsoul.txt: Lifting table: "Accurate Throw Range" for heavy objects (S37).
  const row = w ? liftingRow(c, w) : undefined;
  const t = row
    ? {
        ...t0,
        accurateRange: Math.min(t0.accurateRange, Math.max(1, Math.floor(row.accurateMetres / SPACE_METRES))),
      }
    : t0;
  return {
    id: item.id,
    name: item.name,
    type: 'thrown',
    damage: t.damage,
    reach: 0,
    accurateRange: t.accurateRange,
    maximumRange: t.maximumRange,
    strongAgainst: w?.strongAgainst ?? [],
    weakAgainst: w?.weakAgainst ?? [],
    armourPiercing: w?.armourPiercing ?? false,
    // archsoul.txt: Throw an Item: "such as a rock, grenade, or spear"; the improvised penalty is "the regular improvised
    // weapon penalty when used in melee" (Lifting, Throwing, and Improvised Weapons): an item thrown is not improvised.
    improvised: w ? w.improvised : false,
    broken: w?.broken ?? false,
    // S2: a thrown weapon's own table, as its sheet names it; anything else thrown rolls the thrown default.
    criticalTable: w?.type === 'thrown' ? w.criticalTable : DEFAULT_CRITICAL_TABLE.thrown,
    soulMagic: false,
    attackRoll: t.heavy ? 1 : 0,
    stowage: item.stowage,
    held: true,
    thrown: t,
    ...(w?.weightLb !== undefined ? { weightLb: w.weightLb } : {}),
    ...(w?.liftingAthletics !== undefined ? { liftingAthletics: w.liftingAthletics } : {}),
    handling: w?.handling ?? 'regular',
    twoHanded: w?.twoHanded ?? false,
    hardness: w?.hardness ?? 0,
    closeCombat: false,
    properties: [],
    ...(w?.areaRadius ? { areaRadius: w.areaRadius } : {}),
  };
}
