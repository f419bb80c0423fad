import { z } from 'zod';
import { RuleEvent } from '../core/types';
import { ARCHSOUL_EVENT_SCHEMAS, ARCHSOUL_INITIATIVE_ROLL, TestResultSchema } from './contract';

/** S1: one test as rolled. */
export type TestResult = z.infer<typeof TestResultSchema>;

/** S9: one combatant's initiative roll in InitiativeRolled. */
export type ArchsoulInitiativeRoll = z.infer<typeof ARCHSOUL_INITIATIVE_ROLL>;

type Schemas = typeof ARCHSOUL_EVENT_SCHEMAS;
/** Every Archsoul event type → its data, as declared in contract.ts. */
export type ArchsoulEventMap = { [K in keyof Schemas]: z.infer<Schemas[K]> };
export type ArchsoulEventType = keyof ArchsoulEventMap;
export type ArchsoulEventData<T extends ArchsoulEventType> = ArchsoulEventMap[T];
/** An Archsoul event: the union `evolve` narrows on `type`. */
export type ArchsoulEvent = {
  [K in ArchsoulEventType]: { type: K; data: ArchsoulEventMap[K] };
}[ArchsoulEventType];

export function ev<T extends ArchsoulEventType>(type: T, data: ArchsoulEventMap[T]): RuleEvent {
  return { type, data };
}

/** Whether `event` is one of Archsoul's own (not a lifecycle event): then its data is the declared one. */
export function isArchsoulEvent(event: RuleEvent): event is RuleEvent & ArchsoulEvent {
  return Object.hasOwn(ARCHSOUL_EVENT_SCHEMAS, event.type);
}
