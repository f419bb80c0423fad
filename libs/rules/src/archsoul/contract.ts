import { z } from 'zod';
import { CommandSchemas } from '../core/contract';
import { lifecycleCommands } from '../core/lifecycle-contract';
import { SystemContract } from '../core/types';

/** A combatant's sheet, as a client sends it (validateSheet in sheet.ts applies the rules). */
export const ARCHSOUL_SHEET: z.ZodType = z.unknown();

/** The fight options this system reads. */
export const ARCHSOUL_OPTIONS = z.strictObject({
  arrowBreakage: z.boolean().optional().describe('Arrows and bolts that hit may break (default true); false keeps every one.'),
});

/** Every archsoul command beyond the lifecycle, declared once. */
export const ARCHSOUL_COMMAND_SCHEMAS = {} satisfies CommandSchemas;

export const ARCHSOUL_CONTRACT: SystemContract = {
  commands: { ...lifecycleCommands({ sheet: ARCHSOUL_SHEET, options: ARCHSOUL_OPTIONS }), ...ARCHSOUL_COMMAND_SCHEMAS },
  sheet: ARCHSOUL_SHEET,
  options: ARCHSOUL_OPTIONS,
};
