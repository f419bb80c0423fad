import { registerEnumType } from '@nestjs/graphql';

/**
 * The closed sets the API answers as plain strings, typed as GraphQL enums where it gives them out (REST's
 * OpenAPI lists the same values as `enum`). Their values are the strings themselves, so the JSON a client
 * reads is unchanged. Arguments that take them stay strings: the service judges them, with its own error
 * code and field, the same way on REST and GraphQL.
 */
function closedSet<V extends string>(
  name: string,
  description: string,
  values: Record<V, string>,
): { readonly [K in V]: K } {
  const set = Object.fromEntries(Object.keys(values).map((v) => [v, v])) as { [K in V]: K };
  const valuesMap = Object.fromEntries(
    Object.entries<string>(values).map(([v, description]) => [v, { description }]),
  ) as Record<V, { description: string }>;
  registerEnumType(set, { name, description, valuesMap });
  return set;
}

export const FightStatus = closedSet('FightStatus', 'Where a fight stands', {
  setup: 'Created; no round has started yet',
  active: 'Its first round has started',
  ended: 'EndFight has ended it',
});

export const TokenRole = closedSet('FightTokenRole', 'What a fight token may do', {
  player: 'Acts for its combatants and reads the fight',
  spectator: 'Reads the fight only',
});
export type TokenRole = keyof typeof TokenRole;

export const LabRunStatus = closedSet('LabRunStatus', 'Where a Combat Lab run stands', {
  running: 'Its fights are being played',
  done: 'Every cell has its result',
  failed: 'It stopped on an error (error says which)',
});
export type LabRunStatus = keyof typeof LabRunStatus;
