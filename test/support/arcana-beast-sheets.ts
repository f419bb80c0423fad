/** The Arcana Beast combatants several suites play: Ash's Ember, Pip and a wild wolf, and their Binders. */
export const stats = (brawn: number, agility: number) => ({
  brawn,
  agility,
  endurance: 2,
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
