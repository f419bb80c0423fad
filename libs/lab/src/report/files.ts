import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { LabResult } from '../result';
import { toCsv } from './csv';
import { toSvg } from './svg';

export function toJson(result: LabResult): string {
  return JSON.stringify(result, null, 2) + '\n';
}

/** Writes lab.json, lab.csv and lab.svg into `dir`; returns their paths. */
export function writeReports(result: LabResult, dir: string): string[] {
  mkdirSync(dir, { recursive: true });
  const files: [string, string][] = [
    ['lab.json', toJson(result)],
    ['lab.csv', toCsv(result)],
    ['lab.svg', toSvg(result)],
  ];
  return files.map(([name, text]) => {
    const path = join(dir, name);
    writeFileSync(path, text);
    return path;
  });
}
