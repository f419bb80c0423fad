import { ID, Int } from '@nestjs/graphql';

/** The `fightId` argument of every field about one fight. */
export const FIGHT_ID_ARG = { type: () => ID, description: 'The fight id' };

/** `minSeq`, as GET /fights/:id and its combatants take it. */
export const MIN_SEQ_ARG = {
  type: () => Int,
  nullable: true,
  description: 'Wait (up to 2 s) until the projection has reached this seq: read your own write',
};
