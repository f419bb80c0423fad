import { z } from 'zod';
import { CommandSchemas } from '../core/contract';
import { lifecycleCommands } from '../core/lifecycle-contract';
import { SystemContract } from '../core/types';

/** A combatant's sheet, as a client sends it (validateSheet in sheet.ts applies the rules). */
export const NARATEER_SHEET: z.ZodType = z.unknown();

/** The fight options this system reads. */
export const NARATEER_OPTIONS = z.strictObject({});

/** Every narateer command beyond the lifecycle, declared once. */
export const NARATEER_COMMAND_SCHEMAS = {} satisfies CommandSchemas;

export const NARATEER_CONTRACT: SystemContract = {
  commands: { ...lifecycleCommands({ sheet: NARATEER_SHEET, options: NARATEER_OPTIONS }), ...NARATEER_COMMAND_SCHEMAS },
  sheet: NARATEER_SHEET,
  options: NARATEER_OPTIONS,
};
