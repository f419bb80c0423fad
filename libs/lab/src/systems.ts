import { LabSystem } from './lab-system';
import { narateerLab } from './narateer';

/** Every rule system the lab can play, by id. */
export const LAB_SYSTEMS: Readonly<Record<string, LabSystem>> = {
  narateer: narateerLab as LabSystem,
};
