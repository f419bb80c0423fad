/**
 * A Narateer duel that can run for ever: no hit ever wounds (Weapon Damage 0, Soak 20; N34
 * records 0 Wounds), each activation makes three full exchanges answered by a Clash given up front,
 * and the round's end refreshes the dice. 11 commands per round, 6 of them exchanges.
 */
const weapon = {
  id: 'blade',
  name: 'Practice blade',
  kind: 'melee',
  weight: 'light',
  baseAttackCost: 1,
  weaponDamage: 0,
  damageVitalCap: 0,
  harm: 'Physical (Slashing)',
};
const sheet = {
  vitals: { strength: 2, agility: 3, resilience: 2 },
  skills: { melee: 3, ranged: 0, acrobatics: 1 },
  maxVitality: 12,
  maxAD: 6,
  maxMD: 0,
  weapons: [weapon],
  armour: { soak: 20 },
};

export interface BenchCommand {
  type: string;
  [field: string]: unknown;
}

export function createFightInput(
  mode: 'fair' | 'seeded' = 'fair',
  seed?: string,
): { system: string; [field: string]: unknown } {
  return {
    system: 'narateer',
    name: 'Bench duel',
    dice: mode === 'seeded' ? { mode, seed, clientSeed: 'bench' } : { mode },
    combatants: [
      { id: 'mira', name: 'Mira', side: 'a', sheet },
      { id: 'orin', name: 'Orin', side: 'b', sheet },
    ],
  };
}

export const SETUP: BenchCommand = { type: 'SetInitiative', order: ['mira', 'orin'] };

const exchange = (attackerId: string, targetId: string): BenchCommand => ({
  type: 'DeclareExchange',
  attackerId,
  targetId,
  kind: 'melee',
  weaponId: 'blade',
  boost: 0,
  response: { response: 'clash', boost: 0 },
});

/** One round; repeat it for ever after SETUP. */
export const ROUND: BenchCommand[] = [
  { type: 'StartRound' },
  { type: 'StartActivation', combatantId: 'mira' },
  exchange('mira', 'orin'),
  exchange('mira', 'orin'),
  exchange('mira', 'orin'),
  { type: 'EndActivation' },
  { type: 'StartActivation', combatantId: 'orin' },
  exchange('orin', 'mira'),
  exchange('orin', 'mira'),
  exchange('orin', 'mira'),
  { type: 'EndActivation' },
];

export const isExchange = (step: number): boolean => ROUND[step % ROUND.length].type === 'DeclareExchange';

/** The command at `step` (0-based, counted after SETUP). */
export const commandAt = (step: number): BenchCommand => ROUND[step % ROUND.length];
