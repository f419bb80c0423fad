import { ContractViolation, eventSchemasOf, SYSTEMS } from '@app/rules';

/**
 * Every event type a fight holds, of every system, lifecycle ones included (eventSchemasOf): the names an
 * endpoint's `eventTypes` may list. The outbox matches a type by its exact name (endpointMatches), so a name
 * that is none of these would match nothing, silently.
 */
export const WEBHOOK_EVENT_TYPES: readonly string[] = [
  ...new Set(Object.values(SYSTEMS).flatMap((s) => Object.keys(eventSchemasOf(s.contract)))),
].sort();

const KNOWN: ReadonlySet<string> = new Set(WEBHOOK_EVENT_TYPES);
const BY_LOWER_CASE: ReadonlyMap<string, string> = new Map(
  WEBHOOK_EVENT_TYPES.map((t) => [t.toLowerCase(), t]),
);

/** 422 INVALID_FIELD naming every item of `eventTypes` that is no event type (`eventTypes[1]`), with the known ones. */
export function assertEventTypes(types: readonly unknown[] | undefined): void {
  if (!Array.isArray(types)) return;
  const issues = types.flatMap((t, i) => {
    if (typeof t === 'string' && KNOWN.has(t)) return [];
    const field = `eventTypes[${i}]`;
    const near = typeof t === 'string' ? BY_LOWER_CASE.get(t.toLowerCase()) : undefined;
    return [
      {
        field,
        code: 'INVALID_FIELD' as const,
        message: `${field} ${JSON.stringify(t)} is no event type${near ? ` (did you mean ${near}?)` : ''}; the event types are ${WEBHOOK_EVENT_TYPES.join(', ')}`,
      },
    ];
  });
  if (issues.length) throw new ContractViolation(issues);
}
