import { registerEnumType } from '@nestjs/graphql';

/**
 * The closed sets the API answers as plain strings, typed as GraphQL enums where it gives them out (REST's
 * OpenAPI lists the same values as `enum`). Their values are the strings themselves, so the JSON a client
 * reads is unchanged. Arguments that take them stay strings: the service judges them, with its own error
 * code and field, the same way on REST and GraphQL.
 */
export const FightStatus = { setup: 'setup', active: 'active', ended: 'ended' } as const;
export type FightStatus = (typeof FightStatus)[keyof typeof FightStatus];
registerEnumType(FightStatus, {
  name: 'FightStatus',
  description: 'Where a fight stands',
  valuesMap: {
    setup: { description: 'Created; no round has started yet' },
    active: { description: 'Its first round has started' },
    ended: { description: 'EndFight has ended it' },
  },
});

export const TokenRole = { player: 'player', spectator: 'spectator' } as const;
export type TokenRole = (typeof TokenRole)[keyof typeof TokenRole];
registerEnumType(TokenRole, {
  name: 'FightTokenRole',
  description: 'What a fight token may do',
  valuesMap: {
    player: { description: 'Acts for its combatants and reads the fight' },
    spectator: { description: 'Reads the fight only' },
  },
});

export const LabRunStatus = { running: 'running', done: 'done', failed: 'failed' } as const;
export type LabRunStatus = (typeof LabRunStatus)[keyof typeof LabRunStatus];
registerEnumType(LabRunStatus, {
  name: 'LabRunStatus',
  description: 'Where a Combat Lab run stands',
  valuesMap: {
    running: { description: 'Its fights are being played' },
    done: { description: 'Every cell has its result' },
    failed: { description: 'It stopped on an error (error says which)' },
  },
});
