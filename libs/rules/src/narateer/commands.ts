import { NARATEER_COMMAND_SCHEMAS, NarateerCommandType } from './contract';

export type { AttackInput, NarateerCommand, NarateerCommandType, ResponseInput } from './contract';

/** Every Narateer command beyond the shared lifecycle, with one line each (GET /systems/narateer): its schema's description. */
export const NARATEER_COMMANDS = Object.fromEntries(
  Object.entries(NARATEER_COMMAND_SCHEMAS).map(([type, schema]) => [type, schema.description ?? type]),
) as Record<NarateerCommandType, string>;
