import { InMemoryEventStore } from '@app/event-store';
import { ContractViolation } from '@app/rules';
import { DECLARED_FOR, DeclaredSystem } from '../src/command-admission';
import { AppError } from '../src/errors';
import { FightService } from '../src/fight-service';

/** A command declared for one system (GraphQL's typed mutations) reaches only a fight of that system. */
describe('command admission: a command declared for one system', () => {
  const service = new FightService(new InMemoryEventStore());
  const arcana: DeclaredSystem = { system: 'arcana-beast', via: 'arcanaBeastCommand' };
  const own: DeclaredSystem = { system: 'narateer', via: 'narateerCommand' };
  let fightId = '';
  const eventCount = async () => (await service.events(fightId)).length;
  const note = (declared: DeclaredSystem | undefined, extra: Record<string, unknown> = {}) =>
    service
      .execute(fightId, {
        type: 'AddNote',
        text: 'x',
        ...extra,
        ...(declared && { [DECLARED_FOR]: declared }),
      })
      .catch((e: unknown) => e);

  beforeAll(async () => {
    ({ fightId } = await service.create({ system: 'narateer', combatants: [] }));
  });

  it('given a Narateer fight, when a command declared for Arcana Beast is sent, then 422 WRONG_SYSTEM naming fightId, and nothing is appended', async () => {
    const before = await eventCount();
    const refused = await note(arcana);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({
      status: 422,
      code: 'WRONG_SYSTEM',
      field: 'fightId',
      message: `fight ${fightId} is a narateer fight: send its commands with narateer's mutation, not arcanaBeastCommand`,
    });
    expect(await eventCount()).toBe(before);
  });

  it('given a Narateer fight, when a command declared for Narateer is sent, then it lands, and the declaration is no field of the recorded command', async () => {
    const before = await eventCount();
    const result = await service.execute(fightId, {
      type: 'AddNote',
      text: 'mine',
      commandId: 'declared',
      [DECLARED_FOR]: own,
    });
    expect(result.seq).toBe(before + 1);
    const { entries } = await service.exportLog(fightId);
    expect(entries[entries.length - 1].command).toStrictEqual({ type: 'AddNote', text: 'mine' });
    // Sent again without a declaration (as REST sends it), it is the same command: the first result.
    const again = await service.execute(fightId, { type: 'AddNote', text: 'mine', commandId: 'declared' });
    expect(again).toMatchObject({ replayed: true, seq: before + 1 });
  });

  it('given a commandId the fight has seen, when it is sent again declared for another system, then 422 WRONG_SYSTEM, not the first result', async () => {
    const first = await note(own, { commandId: 'note-once' });
    expect(first).toMatchObject({ replayed: false });
    const again = await note(own, { commandId: 'note-once' });
    expect(again).toMatchObject({ replayed: true });
    const elsewhere = await note(arcana, { commandId: 'note-once' });
    expect(elsewhere).toMatchObject({ status: 422, code: 'WRONG_SYSTEM', field: 'fightId' });
  });

  it('given a command declared for another system with a stale expectedSeq, then WRONG_SYSTEM comes first', async () => {
    const refused = await note(arcana, { expectedSeq: 0 });
    expect(refused).toMatchObject({ code: 'WRONG_SYSTEM' });
  });

  it('given a body with a `system` field (REST: no declaration), then it is a field of the command, refused by its contract, not a declared system', async () => {
    const before = await eventCount();
    const refused = await note(undefined, { system: 'arcana-beast' });
    expect(refused).toBeInstanceOf(ContractViolation);
    expect(refused).toMatchObject({
      issues: [expect.objectContaining({ field: 'system', code: 'UNKNOWN_FIELD' })],
    });
    expect(await eventCount()).toBe(before);
  });
});
