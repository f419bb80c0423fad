import { ensure } from '../core/violation';
import type { AttackType } from './data';
import type { ArchsoulSheet } from './sheet';

/**
 * S51: a combatant has two hands. Every rule of archsoul.txt assumes them ("a one-handed weapon", "Draw a
 * two-handed weapon", "a non-light weapon in your other hand", Grab "with an empty hand"). What each hand holds is
 * kept as two slots; a two-handed weapon fills both.
 */
export const HANDS = 2;

/** Two slots, each an item id or empty; a two-handed weapon's id stands in both. */
export type Hands = [string | null, string | null];

export const EMPTY_HANDS: Hands = [null, null];

/** What the sheet says of a thing that may be held: a weapon (type, twoHanded), an item (twoHanded) or the shield. */
interface Holdable {
  id?: string;
  type?: AttackType;
  twoHanded?: boolean;
  soulMagic?: boolean;
}

/**
 * S51: the hands a held thing fills: a two-handed weapon or item both; an unarmed weapon none (archsoul.txt: Unarmed:
 * "a weapon that conforms to your body like a gauntlet or claws": worn, it leaves the hand empty), nor soul magic (a
 * `soul` weapon, or an elemental one marked soulMagic: a power, not an implement); anything else (a one-handed
 * weapon, a technological elemental weapon, an item, a shield) one.
 */
export function handsOf(x: Holdable): 0 | 1 | 2 {
  if (x.type === 'unarmed' || x.type === 'soul' || x.soulMagic) return 0;
  return x.twoHanded ? 2 : 1;
}

/** The sheet's weapon, item or shield with this id (undefined when it has none). */
export function holdable(
  sheet: ArchsoulSheet,
  id: string,
): (Holdable & { id: string; name: string; kind: 'weapon' | 'item' | 'shield' }) | undefined {
  const w = sheet.weapons.find((x) => x.id === id);
  if (w) return { ...w, kind: 'weapon' };
  const i = sheet.items.find((x) => x.id === id);
  if (i) return { ...i, kind: 'item' };
  return sheet.shield?.id === id ? { id, name: sheet.shield.name, kind: 'shield' } : undefined;
}

export function handsFor(sheet: ArchsoulSheet, id: string): 0 | 1 | 2 {
  const x = holdable(sheet, id);
  return x ? handsOf(x) : 1;
}

/** How many of the two hands hold nothing. */
export function freeHands(hands: Hands | undefined): number {
  return (hands ?? EMPTY_HANDS).filter((h) => h === null).length;
}

/** S51: `id` taken into the free hand(s) it needs, first free hand first (what does not fit is not taken in hand). */
export function grasp(hands: Hands | undefined, id: string, need: number): Hands {
  const next: Hands = [...(hands ?? EMPTY_HANDS)];
  if (need === 0 || next.includes(id)) return next;
  const free = next.flatMap((h, i) => (h === null ? [i] : []));
  if (free.length < need) return next;
  for (const i of free.slice(0, need)) next[i] = id;
  return next;
}

/** S51: the hand(s) holding `id` are empty again (dropped, thrown, stolen, destroyed). */
export function release(hands: Hands | undefined, id: string): Hands {
  return (hands ?? EMPTY_HANDS).map((h) => (h === id ? null : h)) as Hands;
}

/** Names of what fills the hands now, for a refusal ("Greatsword (both hands)", "Dagger and Shield"). */
export function describeHands(sheet: ArchsoulSheet, hands: Hands): string {
  const ids = [...new Set(hands.filter((h): h is string => h !== null))];
  if (ids.length === 0) return 'nothing';
  return ids
    .map(
      (id) =>
        `${holdable(sheet, id)?.name ?? id}${hands[0] === id && hands[1] === id ? ' (both hands)' : ''}`,
    )
    .join(' and ');
}

/**
 * S51: `id` needs its hands free. The text has no action that puts a held thing away, so a hand is freed by dropping
 * what it holds (a free action), throwing it or losing it.
 */
export function checkHandsFree(
  sheet: ArchsoulSheet,
  combatantId: string,
  hands: Hands,
  id: string,
  rule: string,
  field: string,
): void {
  const need = handsFor(sheet, id);
  const free = freeHands(hands);
  ensure(
    free >= need,
    'ARCHSOUL_HANDS_FULL',
    `${rule}: ${holdable(sheet, id)?.name ?? id} needs ${need === 2 ? 'both hands' : 'a free hand'}; ${combatantId} has two (ruling S51) and holds ${describeHands(sheet, hands)}: drop ${new Set(hands.filter((h) => h !== null)).size > 1 ? 'one of them' : 'it'} first (a free action)`,
    field,
  );
}
