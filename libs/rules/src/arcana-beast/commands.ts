export type ArcanaCommandType =
  | 'Attack'
  | 'UseSpecialAttack'
  | 'UseZeroPower'
  | 'Intercept'
  | 'Defend'
  | 'Assist'
  | 'Guard'
  | 'Pass'
  | 'Reposition'
  | 'Move'
  | 'Evolve'
  | 'Direct'
  | 'Encourage'
  | 'Strategize'
  | 'CallBack'
  | 'UseItem'
  | 'BondSurge'
  | 'SetBand'
  | 'SetTag'
  | 'ClearTag'
  | 'ApplyCondition'
  | 'RemoveCondition'
  | 'SetTrigger'
  | 'RollTest'
  | 'RollOpposedTest'
  | 'RerollInitiative'
  | 'EndScene';

/** Every Arcana Beast command beyond the shared lifecycle, with one line each (GET /systems/arcana-beast). */
export const ARCANA_COMMANDS: Record<ArcanaCommandType, string> = {
  Attack:
    'Action: attackerId, targetId, attackId?, bonusDice?, intercept?; dice = attack pool then Dodge pool (A16).',
  UseSpecialAttack:
    'Action: spend a Special Attack use and attack: attackerId, targetId, specialAttackId, bonusDice?, intercept?; dice as Attack.',
  UseZeroPower:
    'Action, once per scene while its trigger is active: attackerId, targetId (for an attacking Zero Power), intercept?; dice as Attack.',
  Intercept:
    'The Binder’s beast answers an attack on its Binder: combatantId, intercept (true|false); carries the attack’s dice (A22).',
  Defend: 'Action: Boost on all Dodge rolls until the next turn: combatantId.',
  Assist: 'Action: +1 die on a Close ally’s next roll: combatantId, allyId.',
  Guard: 'Action: redirect attacks on a Close ally to yourself until the next turn: combatantId, allyId.',
  Pass: 'Action: choose not to act: combatantId.',
  Reposition:
    'Action: move up to two bands or leave Far (combatantId, towardId, band, using?), or gain positional advantage (no towardId).',
  Move: 'The free move of one band: combatantId, towardId, band, using? (flight | teleport | burrowing); difficult terrain rolls Agility in dice.',
  Evolve: 'Free: transform to a higher unlocked Stage: combatantId, stage? (default the highest).',
  Direct: 'Binder Command: the beast’s action gains +1 die: combatantId (the Binder).',
  Encourage:
    'Binder Command, Spirit Test Diff 1: combatantId, effect (dodgeDie | removeCondition), condition?; dice = the test.',
  Strategize:
    'Binder Command, Technique Test Diff 2: ignore the enemy positioning benefit this turn: combatantId; dice = the test.',
  CallBack:
    'Binder Command: the beast returns to its Wearable Vessel: combatantId, mode (retreat | devolve); Devolution Test with Boost in followUpFaces.',
  UseItem:
    'Binder Command: spend Stuff: combatantId, itemId, targetId?, condition?; an item with a test rolls it in dice.',
  BondSurge: 'Binder Command: Boost on all rolls this turn, costs the beast 1 Stamina: combatantId.',
  SetBand:
    'GM: set the distance band between two combatants: aId, bId, band (close | near | far), difficultTerrain? (Difficulty, true = 1, 0 clears).',
  SetTag:
    'GM: positioning tag: combatantId, tag (highGround | cover | flanking | cornered | obscured), againstId?.',
  ClearTag: 'GM: clear a positioning tag: combatantId, tag.',
  ApplyCondition: 'GM: apply a condition: combatantId, condition.',
  RemoveCondition: 'GM: remove a condition: combatantId, condition.',
  SetTrigger: 'GM: mark an emotional trigger: combatantId, kind (stage | zeroPower), stage?, active.',
  RollTest:
    'GM: a Test with a Difficulty: combatantId, stat, difficulty, ranks?, bonusDice?, boost?, setback?, reason?; dice = the test.',
  RollOpposedTest:
    'GM: an opposed test: aId, aStat, aRanks?, aBonusDice?, aBoost?, aSetback?, bId, bStat?, bRanks?, bBonusDice?, bBoost?, bSetback?, reason?; dice = a’s pool then b’s.',
  RerollInitiative:
    'GM: answer an initiative tie by rerolling the tied beasts; manual dice carry each tied beast’s Agility pool in the order the tie’s `detail.ties` lists them (ruling A16).',
  EndScene:
    'GM: the encounter ends: a running turn and the open round end first, the highest Stage reverts, Special Attack uses and Zero Power reset, Defend, Guard and waiting dice end.',
};
