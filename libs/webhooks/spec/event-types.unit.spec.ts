import { ContractViolation, eventSchemasOf, SYSTEMS } from '@app/rules';
import { assertEventTypes, WEBHOOK_EVENT_TYPES } from '../src/event-types';

function refusal(types: unknown[]): ContractViolation {
  try {
    assertEventTypes(types);
  } catch (e) {
    if (e instanceof ContractViolation) return e;
    throw e;
  }
  throw new Error('expected a ContractViolation');
}

describe("an endpoint's eventTypes (docs/webhooks.md Filters)", () => {
  it('the known types are every event type of every system, the lifecycle ones included', () => {
    for (const system of Object.values(SYSTEMS))
      for (const type of Object.keys(eventSchemasOf(system.contract)))
        expect(WEBHOOK_EVENT_TYPES).toContain(type);
    for (const type of [
      'FightStarted',
      'GmNoteAdded',
      'FightEnded',
      'DiceRequested',
      'ActionsUndone',
      'WoundsApplied',
    ])
      expect(WEBHOOK_EVENT_TYPES).toContain(type);
  });

  it('given only known types, or none, then they are taken', () => {
    expect(() => assertEventTypes(undefined)).not.toThrow();
    expect(() => assertEventTypes([])).not.toThrow();
    expect(() => assertEventTypes([...WEBHOOK_EVENT_TYPES])).not.toThrow();
  });

  it('given a name that is no event type, then 422 INVALID_FIELD naming its item and listing the known types', () => {
    const e = refusal(['WoundsApplied', 'Nope']);
    expect(e).toMatchObject({ code: 'INVALID_FIELD', field: 'eventTypes[1]' });
    expect(e.message).toMatch(/^eventTypes\[1\] "Nope" is no event type; the event types are /);
    expect(e.message).toContain('FightStarted, ');
  });

  it('given a type in the wrong case, then it is refused with the name it likely meant', () => {
    expect(refusal(['fightstarted']).message).toMatch(
      /^eventTypes\[0\] "fightstarted" is no event type \(did you mean FightStarted\?\)/,
    );
  });

  it('given several unknown names, then issues lists each of them', () => {
    expect(refusal(['Bogus', 'FightEnded', 'webhook.ping']).issues.map((i) => i.field)).toEqual([
      'eventTypes[0]',
      'eventTypes[2]',
    ]);
  });
});
