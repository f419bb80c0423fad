import type { ARCHSOUL_COMMAND_SCHEMAS } from './contract';
import { CONDITIONS } from './data';

/** Every Archsoul command beyond the shared lifecycle: the ones contract.ts declares. */
export type ArchsoulCommandType = keyof typeof ARCHSOUL_COMMAND_SCHEMAS;

/**
 * The shared lifecycle's commands whose Archsoul meaning differs, as GET /systems/archsoul and the contract describe
 * them: rounds run in phases (S12, S17), and the enemies share one initiative (S16, S107).
 */
export const ARCHSOUL_LIFECYCLE_TEXTS = {
  AddCombatant:
    'Add a combatant with a sheet; after initiative it rolls and is slotted in (an enemy shares the GM’s roll, S16); its `tieBreak` names all the enemies side by side or none, and is refused where the enemies alone are ordered (S107).',
  RollInitiative:
    'Roll initiative: each hero rolls, the GM once for all enemies (S16); manual `dice` carry each hero’s Precision/Awareness pool in join order, then the enemies’ one pool, and roll-offs go in `followUpFaces` (S15); `tieBreak` orders groups still tied, naming all the enemies side by side or none, and is refused where the enemies alone roll (S107).',
  SetInitiative:
    'GM gives the initiative order explicitly (`order`: every combatant id, the enemies side by side, S107).',
  StartRound:
    'Open the next round and its first phase (RULINGS.md S12, ruling S17): each combatant of the phase who can act has an open turn of 3 AP; when the last one ends (EndTurn, or EndPhase) the next phase opens, and after the last phase the round ends.',
  EndRound:
    'GM ends the open round early: every open turn and the running phase end, and no other phase opens.',
} as const;

/** Every Archsoul command beyond the shared lifecycle (GET /systems/archsoul). */
export const ARCHSOUL_COMMANDS: Record<ArchsoulCommandType, string> = {
  SetMap: 'GM: the battle map: grid (hex | square), blocked [{x, y}], walls [[{x, y}, {x, y}]].',
  PlaceCombatant: 'GM: put a combatant on a space with a facing: combatantId, position {x, y}, facing?.',
  DeclareAmbush:
    'GM, before round 1: the surprising party (heroes | enemies) moves free up to its speed in round 1.',
  EndTurn:
    "End a combatant's turn in the running phase: combatantId, to? (S43: a free adjacent space to leave another's space for). Unused AP are lost.",
  EndPhase: 'GM: end every open turn of the running phase.',
  Move: 'Move (1 AP, or free in an ambush round): combatantId, path [{x, y}…], facing?, free?, jump? (straight, Athletics + ½ Conditioning metres; vertical jumps are refused, S41), jumpFrom? (spaces walked before the jump, S55), ap? (a jump paid with 1–3 AP, each a use of Move, S90), trample? (mounted). Facing follows the path.',
  SlowMove: 'Slow Move one space (1 AP): combatantId, to {x, y}, facing?.',
  Turn: 'Free: rotate between actions on your own turn: combatantId, facing.',
  DropProne:
    'Free: drop to the ground (grappled: after a won grapple roll, S33); a rider comes off its mount (S35): combatantId.',
  StandUp: 'Stand up from prone (1 AP; triggers reactive attacks): combatantId.',
  DropItem:
    'Free: drop a held item in your space (grappled: after a won grapple roll, S33): combatantId, itemId.',
  DrawSimpleItem:
    'Draw a one-handed item (1 AP) or pick one up from the ground (groundId; triggers reactive attacks): combatantId, itemId | groundId.',
  DrawAwkwardItem:
    'Draw an awkward item (2 AP, consecutive, may span turns): combatantId, itemId, fromBackpack? (triggers reactive attacks as the draw starts; refused on its second half, S105).',
  Attack:
    'Attack (2 AP): attackerId, targetId, weaponId?, unarmedStyle? (punch | other), limbArmoured?, modifier?, damageModifier?, criticalNarration?; ' +
    'special? (quick: 1 AP | reckless: 3 AP); attack modifiers: feint? (true | {skill?, facing?}), sneak?, knockdown?, shatter? {itemId}, cleave? {spaces [{x, y}…]} (targetId then optional; named, it stands in one of them, S104).',
  ThrowItem:
    'Throw a held item at a target (1 AP; triggers reactive attacks; a weapon attack, so not while grappled, S48): combatantId, itemId, targetId, modifier?, damageModifier?, criticalNarration?.',
  ReactiveAttack:
    'The offered reactor attacks the actor before its action: combatantId, weaponId?, unarmedStyle?, limbArmoured?, modifier?, damageModifier?, criticalNarration?, feint?, sneak?, knockdown?, shatter? (not cleave or special); or grab? (S71: a Grab with an empty hand, no weapon or other maneuver).',
  DeclineReactiveAttack: 'The offered reactor lets the action pass: combatantId.',
  ResumeAction:
    'After reactive attacks that did not prevent it, the actor performs its held action as declared (S50): combatantId, abandon?, modifier?, damageModifier?, criticalNarration?, limbArmoured?.',
  ClearJam: 'Clear a jammed firearm (3 AP, a full round): combatantId, weaponId.',
  ApplyCondition: `GM: apply a condition (${CONDITIONS.join(', ')}; unaware is the GM's call for a Sneak Attack, S30): combatantId, condition, amount? (slowed, defenseDown, nextAttackHarder only, S104), untilNextTurn?, reason?.`,
  RemoveCondition: 'GM: remove a condition: combatantId, condition.',
  ApplyDamage: 'GM: damage (e.g. a Soul attack effect) to HP: combatantId, damage, source?.',
  Study:
    'Sneak Attack: one studying action (1 AP) on a target; three consecutive ones allow sneak: true: combatantId, targetId.',
  HoldFirm:
    'Hold Firm (2 AP): until your next turn, attacks against your back arc count as front-arc attacks: combatantId.',
  ShieldIntercept:
    'Shield Intercept (1 AP, held shield): until your next turn, projectiles fired through your space are +1 to hit: combatantId.',
  SoulShield:
    'Soul Shield (3 AP, soul magic): an adjacent ally may use your Soulpower/Resolve until your next turn: combatantId, targetId.',
  AreaAttack:
    'Area of effect attack (Attack 2 AP, or Throw 1 AP for a thrown bomb) with an areaRadius weapon: attackerId, weaponId, centre {x, y}, modifier?, damageModifier?, criticalNarration?.',
  Grab: 'Grab (2 AP, an empty hand): the target may react first; opposed grapple rolls start a grapple: combatantId, targetId.',
  GrappleAttack:
    'Grappling: Attack (1 AP): opposed grapple rolls, unarmed (or Close Combat weapon) damage: combatantId, targetId, weaponId?.',
  Escape:
    'Grappling: Escape (2 AP): opposed grapple rolls end the grapple (stand up instead when prone, which triggers reactive attacks, S33): combatantId, targetId.',
  Steal:
    'Grappling: Steal (1 AP, control): take an item from hand or easy reach: combatantId, targetId, itemId.',
  Takedown:
    'Grappling: Takedown (1 AP, control): both knocked down, move into the opponent’s space: combatantId, targetId.',
  Charge:
    'Charge (3 AP, mounted): a straight path of 3..6 × mount speed spaces, then a Flail/Lance attack with +mount speed damage dice: combatantId, path, targetId, weaponId, trample?, knockdown?, feint?, shatter?, modifier?, damageModifier?, criticalNarration?.',
  Mount: 'Mount (1 AP, S42): climb onto your mount, waiting in or beside your space: combatantId.',
  Dismount: 'Dismount (1 AP, S42): get off your mount, which waits in your space: combatantId.',
  Fall: 'GM (S40): a combatant falls: combatantId, damage (the GM’s), metres?; it lands prone (a rider is dismounted); no AP.',
  PerformRitual:
    'Perform a ritual (S46): combatantId, name, description?, ap (1–3, the ritual’s cost), movement (requires movement: refused while grappled), provokes (triggers reactive attacks); its effect is narrated, the GM applies it.',
  GrappleThrow:
    'Grappling: Throw (2 AP, control): unarmed damage, then outcome throw (to {x, y} adjacent to you) or knockDown; the grapple ends: combatantId, targetId, outcome?, to?.',
};
