import { COMMON_RULINGS } from '../core/rulings';
import { Ruling } from '../core/types';

/** RULINGS.md N1: a d6 read as dots. Index = face. */
export const DOTS_BY_FACE = [0, 0, 0, 1, 1, 1, 2] as const;
export const NARATEER_DIE_SIDES = 6;

export function dots(face: number): number {
  return DOTS_BY_FACE[face];
}

export const VITALS = ['strength', 'agility', 'resilience'] as const;
export const SKILLS = ['melee', 'ranged', 'acrobatics'] as const;

export const NARATEER_DATA = {
  die: { sides: NARATEER_DIE_SIDES, dotsByFace: DOTS_BY_FACE.slice(1) },
  vitals: VITALS,
  skills: SKILLS,
};

export const NARATEER_RULINGS: Ruling[] = [
  ...COMMON_RULINGS,
  { id: 'N1', text: 'The Narateer die: d6, faces 1–2 show 0 dots, 3–5 one dot, 6 two dots.' },
  { id: 'N4', text: 'Activations: Side Roll of Agility dice, higher first, ties by Agility, then the GM.' },
  { id: 'N15', text: 'Side Roll: X dice from no pool, no AD/MD spent, X ≤ 0 gives 0 dots.' },
  { id: 'N16', text: 'Rounds: initiative once, late joiners slotted in, one activation each per round.' },
];
