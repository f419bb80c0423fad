import { bad, int, obj } from '../core/fields';
import { SKILLS, VITALS } from './data';

export interface NarateerSheet {
  vitals: Record<(typeof VITALS)[number], number>;
  skills: Record<(typeof SKILLS)[number], number>;
  maxVitality: number;
  maxAD: number;
  maxMD: number;
}

export function validateSheet(raw: unknown, field: string): NarateerSheet {
  const s = obj(raw, field);
  const vitalsIn = obj(s.vitals, `${field}.vitals`);
  const skillsIn = obj(s.skills, `${field}.skills`);
  const vitals = Object.fromEntries(VITALS.map((v) => [v, int(vitalsIn[v], `${field}.vitals.${v}`, { min: 0, max: 20 })])) as NarateerSheet['vitals'];
  const skills = Object.fromEntries(SKILLS.map((k) => [k, int(skillsIn[k] ?? 0, `${field}.skills.${k}`, { min: 0, max: 10 })])) as NarateerSheet['skills'];
  const sheet: NarateerSheet = {
    vitals,
    skills,
    maxVitality: int(s.maxVitality, `${field}.maxVitality`, { min: 1, max: 100 }),
    maxAD: int(s.maxAD, `${field}.maxAD`, { min: 0, max: 30 }),
    maxMD: int(s.maxMD ?? 0, `${field}.maxMD`, { min: 0, max: 30 }),
  };
  if (sheet.maxAD + sheet.maxMD === 0) bad(`${field}.maxAD`, 'and maxMD cannot both be 0');
  return sheet;
}
