import type { CommandInput, CreateFightInput } from '@app/fights';

/** The Arcana Beast combatants several suites play: Ash's Ember, Pip and a wild wolf, and their Binders. */
export const stats = (brawn: number, agility: number, endurance = 2) => ({
  brawn,
  agility,
  endurance,
  spirit: 3,
  technique: 2,
});
export const ember = {
  kind: 'beast',
  stats: stats(3, 2),
  qualities: { Claws: 1, Nimble: 1 },
  defensiveQualities: ['Nimble'],
  hp: 12,
  stamina: 2,
  stage: 2,
  stages: [{ stage: 0 }, { stage: 1 }, { stage: 2 }, { stage: 3, name: 'Emberlord', trigger: 'protect Ash' }],
  attacks: [{ id: 'claw', name: 'Claw', range: 'melee', ranks: 1, qualities: ['Claws'] }],
};
export const pip = {
  kind: 'beast',
  stats: stats(2, 3),
  hp: 9,
  stamina: 2,
  stage: 1,
  stages: [{ stage: 1 }],
  attacks: [{ id: 'peck', name: 'Peck', range: 'melee', ranks: 1 }],
};
export const wolf = {
  kind: 'beast',
  stats: stats(2, 2),
  hp: 8,
  stamina: 1,
  stage: 1,
  stages: [{ stage: 1 }],
  attacks: [{ id: 'bite', name: 'Bite', range: 'melee' }],
};
export const binder = (beastId: string) => ({
  kind: 'binder',
  beastId,
  stats: stats(1, 2),
  hp: 10,
  stamina: 3,
  inventory: [{ id: 'potion', name: 'Potion', heal: 4 }],
});

type Sheets = { ember: object; pip: object; binder: (beastId: string) => object };
/** The heroes, Ash with Ember and Bo with Pip (these sheets, or a suite's own), then `foes`. */
export const twoBinders = (foes: object[], sheets: Sheets = { ember, pip, binder }) => [
  { id: 'ember', name: 'Ember', side: 'heroes', sheet: sheets.ember },
  { id: 'ash', name: 'Ash', side: 'heroes', sheet: sheets.binder('ember') },
  { id: 'pip', name: 'Pip', side: 'heroes', sheet: sheets.pip },
  { id: 'bo', name: 'Bo', side: 'heroes', sheet: sheets.binder('pip') },
  ...foes,
];

/** The recorded fight of test/fixtures/logs: two Binders and their beasts against two wolves. */
export const pack = (dice: CreateFightInput['dice']): CreateFightInput => ({
  system: 'arcana-beast',
  name: 'Two Binders against the wolf pack',
  dice,
  combatants: twoBinders([
    { id: 'wolf', name: 'Wolf', side: 'wild', sheet: wolf },
    { id: 'wolf2', name: 'Grey Wolf', side: 'wild', sheet: wolf },
  ]),
});
/** The seeded pack fight's first round: Pip and Ember close on the wolf and attack it, Bo passes. */
export const packRound: CommandInput[] = [
  { type: 'SetInitiative', order: ['pip', 'bo', 'ember', 'ash', 'wolf2', 'wolf'] },
  { type: 'SetBand', aId: 'pip', bId: 'wolf', band: 'close' },
  { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'close' },
  { type: 'StartRound' },
  { type: 'StartActivation' },
  { type: 'Attack', attackerId: 'pip', targetId: 'wolf' },
  { type: 'EndActivation' },
  { type: 'StartActivation' },
  { type: 'EndActivation' },
  { type: 'StartActivation' },
  { type: 'Attack', attackerId: 'ember', targetId: 'wolf' },
  { type: 'EndActivation' },
];

/** The smallest Arcana Beast fight: Ember (Stage 1, a Claw) and her Binder Ash against a lone wolf. */
const loneWolfStats = { brawn: 3, agility: 2, endurance: 2, spirit: 2, technique: 2 };
export const loneWolf = [
  {
    id: 'ember',
    name: 'Ember',
    side: 'heroes',
    sheet: {
      kind: 'beast',
      stats: loneWolfStats,
      hp: 12,
      stamina: 2,
      stage: 1,
      stages: [{ stage: 0 }, { stage: 1 }, { stage: 2 }],
      attacks: [{ id: 'claw', name: 'Claw', range: 'melee' }],
    },
  },
  {
    id: 'ash',
    name: 'Ash',
    side: 'heroes',
    sheet: {
      kind: 'binder',
      beastId: 'ember',
      stats: { ...loneWolfStats, brawn: 1, spirit: 3 },
      hp: 10,
      stamina: 3,
      inventory: [],
    },
  },
  {
    id: 'wolf',
    name: 'Wolf',
    side: 'wild',
    sheet: {
      kind: 'beast',
      stats: { ...loneWolfStats, brawn: 2 },
      hp: 8,
      stamina: 1,
      stage: 1,
      stages: [{ stage: 1 }],
      attacks: [{ id: 'bite', name: 'Bite', range: 'melee' }],
    },
  },
];
