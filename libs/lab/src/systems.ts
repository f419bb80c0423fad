import { LabSystem } from './lab-system';
import { arcanaBeastLab } from './arcana-beast';
import { archsoulLab } from './archsoul';
import { narateerLab } from './narateer';

/** Every rule system the lab can play, by id. */
export const LAB_SYSTEMS: Readonly<Record<string, LabSystem>> = {
  narateer: narateerLab,
  'arcana-beast': arcanaBeastLab,
  archsoul: archsoulLab,
};
