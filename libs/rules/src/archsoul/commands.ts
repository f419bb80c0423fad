export type ArchsoulCommandType =
  | 'SetMap'
  | 'PlaceCombatant'
  | 'DeclareAmbush'
  | 'EndTurn'
  | 'EndPhase'
  | 'Move'
  | 'SlowMove'
  | 'Turn'
  | 'DropProne'
  | 'StandUp'
  | 'DropItem'
  | 'DrawSimpleItem'
  | 'DrawAwkwardItem'
  | 'Attack'
  | 'ThrowItem'
  | 'ReactiveAttack'
  | 'DeclineReactiveAttack'
  | 'ResumeAction'
  | 'ClearJam'
  | 'ApplyCondition'
  | 'RemoveCondition'
  | 'ApplyDamage';

/** Every Archsoul command beyond the shared lifecycle (GET /systems/archsoul). */
export const ARCHSOUL_COMMANDS: Record<ArchsoulCommandType, string> = {
  SetMap: 'GM: the battle map: grid (hex | square), blocked [{x, y}], walls [[{x, y}, {x, y}]].',
  PlaceCombatant: 'GM: put a combatant on a space with a facing: combatantId, position {x, y}, facing?.',
  DeclareAmbush: 'GM, before round 1: the surprising party (heroes | enemies) moves free up to its speed in round 1.',
  EndTurn: "End a combatant's turn in the running phase: combatantId. Unused AP are lost.",
  EndPhase: 'GM: end every open turn of the running phase.',
  Move: 'Move (1 AP, or free in an ambush round): combatantId, path [{x, y}…], facing?, free?. Facing follows the path.',
  SlowMove: 'Slow Move one space (1 AP): combatantId, to {x, y}, facing?.',
  Turn: 'Free: rotate between actions on your own turn: combatantId, facing.',
  DropProne: 'Free: drop to the ground: combatantId.',
  StandUp: 'Stand up from prone (1 AP; triggers reactive attacks): combatantId.',
  DropItem: 'Free: drop a held item in your space: combatantId, itemId.',
  DrawSimpleItem: 'Draw a one-handed item (1 AP) or pick one up from the ground (groundId; triggers reactive attacks): combatantId, itemId | groundId.',
  DrawAwkwardItem: 'Draw an awkward item (2 AP, consecutive, may span turns): combatantId, itemId, fromBackpack? (triggers reactive attacks).',
  Attack: 'Attack (2 AP): attackerId, targetId, weaponId?, unarmedStyle? (punch | other), limbArmoured?, modifier?, damageModifier?, criticalNarration?.',
  ThrowItem: 'Throw a held item at a target (1 AP; triggers reactive attacks): combatantId, itemId, targetId, modifier?, criticalNarration?.',
  ReactiveAttack: 'The offered reactor attacks the actor before its action: combatantId, weaponId?, modifier?.',
  DeclineReactiveAttack: 'The offered reactor lets the action pass: combatantId.',
  ResumeAction: 'After reactive attacks that did not prevent it, the actor performs its held action: combatantId, abandon?.',
  ClearJam: 'Clear a jammed firearm (3 AP, a full round): combatantId, weaponId.',
  ApplyCondition: 'GM: apply a condition (prone, grappled, defenseDown, slowed, nextAttackHarder): combatantId, condition, amount?, untilNextTurn?.',
  RemoveCondition: 'GM: remove a condition: combatantId, condition.',
  ApplyDamage: 'GM: damage (e.g. a Soul attack effect) to HP: combatantId, damage, source?.',
};
