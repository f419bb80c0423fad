import type { CreateFightInput } from '@app/fights';
import { bow, mace, sword } from '../../libs/rules/spec/narateer/helpers';

/** The Narateer duellists several suites play: Mira with her arming sword, Orin with his mace. */
export { bow, mace, sword };
export const base = { maxVitality: 8, maxAD: 5, maxMD: 0, armour: { soak: 1 } };
export const mira = {
  ...base,
  vitals: { strength: 2, agility: 3, resilience: 2 },
  skills: { melee: 3, ranged: 0, acrobatics: 1 },
  weapons: [sword],
};
/** Orin as the worked example plays him: one rank of ranged. */
export const orin = {
  ...base,
  vitals: { strength: 3, agility: 2, resilience: 2 },
  skills: { melee: 1, ranged: 1, acrobatics: 1 },
  weapons: [mace],
};
/** Orin with no rank of ranged, as the recorded duel (test/fixtures/logs) plays him. */
export const orinUnranged = { ...orin, skills: { ...orin.skills, ranged: 0 } };

/** The recorded duel of test/fixtures/logs: Mira of the ford against Orin of the bandits. */
export const duel = (dice: CreateFightInput['dice']): CreateFightInput => ({
  system: 'narateer',
  name: 'Duel at the ford',
  dice,
  combatants: [
    { id: 'mira', name: 'Mira', side: 'ford', sheet: mira },
    { id: 'orin', name: 'Orin', side: 'bandits', sheet: orinUnranged },
  ],
});

/** The worked example, One Melee Exchange: the opening, Mira's declaration, Orin's clash. */
export const opening = [
  { type: 'SetInitiative', order: ['mira', 'orin'] },
  { type: 'StartRound' },
  { type: 'StartActivation' },
];
export const declare = {
  type: 'DeclareExchange',
  attackerId: 'mira',
  targetId: 'orin',
  kind: 'melee',
  weaponId: 'sword',
  boost: 2,
};
// RULINGS N22: the completing command carries Mira's 3 dice (4 dots) then Orin's 2 (2 dots).
export const respond = {
  type: 'RespondToExchange',
  combatantId: 'orin',
  response: 'clash',
  boost: 1,
  weaponId: 'mace',
  dice: [6, 4, 3, 4, 3],
};

/** One side's melee exchange: Mira's sword at Orin, or Orin's mace at Mira, with a response declared up front. */
export const swing = (attackerId: 'mira' | 'orin', boost: number, response?: unknown) => ({
  type: 'DeclareExchange',
  attackerId,
  targetId: attackerId === 'mira' ? 'orin' : 'mira',
  kind: 'melee',
  weaponId: attackerId === 'mira' ? 'sword' : 'mace',
  boost,
  ...(response === undefined ? {} : { response }),
});
/** The seeded duel's first activation: rolled initiative, Mira's sword met by a clash, Orin's mace unanswered. */
export const duelRound = [
  { type: 'RollInitiative' },
  { type: 'StartRound' },
  { type: 'StartActivation' },
  swing('mira', 2, { response: 'clash', boost: 1, weaponId: 'mace' }),
  swing('orin', 1, 'none'),
  { type: 'EndActivation' },
];
