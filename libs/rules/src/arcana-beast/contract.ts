import { z } from 'zod';
import { CommandSchemas } from '../core/contract';
import { lifecycleCommands } from '../core/lifecycle-contract';
import { SystemContract } from '../core/types';
import { INITIATIVE_TIES } from './data';

/** A combatant's sheet, as a client sends it (validateSheet in sheet.ts applies the rules). */
export const ARCANA_BEAST_SHEET: z.ZodType = z.unknown();

/** The fight options this system reads. */
export const ARCANA_BEAST_OPTIONS = z.strictObject({
  initiativeTies: z.enum(INITIATIVE_TIES).optional().describe('Turn Order ties: the GM decides (gm, the default) or the tied reroll (reroll).'),
});

/** Every arcana-beast command beyond the lifecycle, declared once. */
export const ARCANA_BEAST_COMMAND_SCHEMAS = {} satisfies CommandSchemas;

export const ARCANA_BEAST_CONTRACT: SystemContract = {
  commands: { ...lifecycleCommands({ sheet: ARCANA_BEAST_SHEET, options: ARCANA_BEAST_OPTIONS }), ...ARCANA_BEAST_COMMAND_SCHEMAS },
  sheet: ARCANA_BEAST_SHEET,
  options: ARCANA_BEAST_OPTIONS,
};
