import type { CommandInput, CreateFightInput } from '@app/fights';
import { bow, sword } from '../../libs/rules/spec/archsoul/helpers';

/** The Archsoul skirmishers several suites play: Kael and the Brute with swords, Ilsa with a longbow, the Scout. */
export { bow, sword };
export const base = {
  attributes: { precision: 2, athletics: 2, endurance: 2, soulpower: 1, intellect: 1 },
  skills: { awareness: 1, meleeWeapons: 2, rangedWeapons: 2, weaponMastery: 1, resolve: 1 },
  maxHp: 10,
  defense: 1,
};

/** The skirmish at the ford (recorded in test/fixtures/logs): two heroes against two enemies, arrows never break. */
export const skirmish = (dice: CreateFightInput['dice']): CreateFightInput => ({
  system: 'archsoul',
  name: 'Skirmish at the ford',
  dice,
  options: { arrowBreakage: false },
  combatants: [
    { id: 'kael', name: 'Kael', side: 'heroes', sheet: { ...base, weapons: [sword] } },
    { id: 'ilsa', name: 'Ilsa', side: 'heroes', sheet: { ...base, weapons: [bow] } },
    { id: 'brute', name: 'Brute', side: 'enemies', sheet: { ...base, weapons: [sword] } },
    { id: 'scout', name: 'Scout', side: 'enemies', sheet: { ...base, defense: 0, weapons: [sword] } },
  ],
});
/** The skirmish's hex map with one wall, everyone placed, the heroes' initiative, the first round started. */
export const skirmishOpening: CommandInput[] = [
  {
    type: 'SetMap',
    grid: 'hex',
    walls: [
      [
        { x: 3, y: -4 },
        { x: 3, y: -5 },
      ],
    ],
  },
  { type: 'PlaceCombatant', combatantId: 'kael', position: { x: 0, y: 0 }, facing: 'N' },
  { type: 'PlaceCombatant', combatantId: 'ilsa', position: { x: -2, y: 1 }, facing: 'N' },
  { type: 'PlaceCombatant', combatantId: 'brute', position: { x: 0, y: -1 }, facing: 'S' },
  { type: 'PlaceCombatant', combatantId: 'scout', position: { x: -1, y: -7 }, facing: 'S' },
  { type: 'SetInitiative', order: ['kael', 'ilsa', 'brute', 'scout'] },
  { type: 'StartRound' },
];
/** The seeded skirmish's first exchanges: Kael and Ilsa attack, then the Brute answers. */
export const skirmishExchanges: CommandInput[] = [
  { type: 'Attack', attackerId: 'kael', targetId: 'brute', weaponId: 'sword' },
  { type: 'Attack', attackerId: 'ilsa', targetId: 'scout', weaponId: 'bow' },
  { type: 'EndTurn', combatantId: 'kael' },
  { type: 'EndTurn', combatantId: 'ilsa' },
  { type: 'Attack', attackerId: 'brute', targetId: 'kael', weaponId: 'sword' },
  { type: 'EndTurn', combatantId: 'brute' },
];
