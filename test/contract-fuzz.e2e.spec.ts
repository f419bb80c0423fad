import fc from 'fast-check';
import { verifyFightLog } from '@app/audit';
import { InMemoryEventStore } from '@app/event-store';
import { AppError, CommandInput, CreateFightInput, FightService } from '@app/fights';
import { findSystem, jsonSchemaOf, RuleViolation, SystemId } from '@app/rules';
import { loneWolf } from './support/arcana-beast-sheets';
import { base as archsoulBase, sword as archsoulSword } from './support/archsoul-sheets';
import { opening, sword } from './support/narateer-sheets';
import { arbitraryOf, hostileValue, mostlyFitting, PROTO_NAMES } from './support/schema-arbitrary';

/**
 * The contract, attacked: commands and sheets generated from the published JSON Schemas of every system
 * (fitting, broken in one field, missing one, or with a typo'd field added) and raw JSON. Whatever comes
 * in, the service answers with a refusal (a RuleViolation or AppError: a 4xx) or a decision; never any
 * other error (a 500), a refusal never changes the log, and every log it writes verifies.
 */

const narateerSheet = (agility: number) => ({
  vitals: { strength: 2, agility, resilience: 2 },
  skills: { melee: 3, ranged: 1, acrobatics: 1 },
  maxVitality: 8,
  maxAD: 5,
  maxMD: 2,
  armour: { soak: 1 },
  weapons: [sword],
});
const archsoulSheet = { ...archsoulBase, weapons: [archsoulSword] };

interface Setup {
  fight: CreateFightInput;
  opening: CommandInput[];
  ids: string[];
}

const SETUPS: Record<SystemId, Setup> = {
  narateer: {
    fight: {
      system: 'narateer',
      dice: { mode: 'manual' },
      combatants: [
        { id: 'mira', name: 'Mira', side: 'ford', sheet: narateerSheet(3) },
        { id: 'orin', name: 'Orin', side: 'bandits', sheet: narateerSheet(2) },
      ],
    },
    opening,
    ids: ['mira', 'orin', 'sword', 'melee', 'ranged'],
  },
  'arcana-beast': {
    fight: {
      system: 'arcana-beast',
      dice: { mode: 'manual' },
      combatants: loneWolf,
    },
    opening: [{ type: 'SetInitiative', order: ['ember', 'ash', 'wolf'] }, { type: 'StartRound' }],
    ids: ['ember', 'ash', 'wolf', 'claw', 'bite'],
  },
  archsoul: {
    fight: {
      system: 'archsoul',
      dice: { mode: 'manual' },
      combatants: [
        { id: 'kael', name: 'Kael', side: 'heroes', sheet: archsoulSheet },
        { id: 'brute', name: 'Brute', side: 'enemies', sheet: archsoulSheet },
      ],
    },
    opening: [
      { type: 'SetMap', grid: 'hex' },
      { type: 'PlaceCombatant', combatantId: 'kael', position: { x: 0, y: 0 }, facing: 'N' },
      { type: 'PlaceCombatant', combatantId: 'brute', position: { x: 0, y: 1 }, facing: 'S' },
      { type: 'SetInitiative', order: ['kael', 'brute'] },
      { type: 'StartRound' },
    ],
    ids: ['kael', 'brute', 'sword', 'melee'],
  },
};

/** A refusal the API turns into a 4xx; anything else would be a 500. */
function isRefusal(e: unknown): boolean {
  return e instanceof RuleViolation || (e instanceof AppError && e.status < 500);
}

describe.each(Object.keys(SETUPS) as SystemId[])('the contract of %s, attacked', (systemId) => {
  const system = findSystem(systemId)!;
  const setup = SETUPS[systemId];
  const schemas = Object.entries(system.contract.commands)
    .filter(([type]) => type !== 'StartFight')
    .map(([type, schema]) => [type, jsonSchemaOf(schema)] as const);
  const fitting = fc.oneof(...schemas.map(([, s]) => mostlyFitting(s as never, { ids: setup.ids })));
  const raw = fc.oneof(
    fc.record(
      { type: fc.constantFrom(...schemas.map(([type]) => type), ...PROTO_NAMES, 'Nope'), x: hostileValue },
      { requiredKeys: ['type'] },
    ),
    fc
      .tuple(
        fc.constantFrom(...schemas.map(([type]) => type)),
        fc.dictionary(fc.string({ maxLength: 12 }), hostileValue, { maxKeys: 4 }),
      )
      .map(([type, fields]) => ({ ...fields, type })),
  );
  const command = fc.oneof(
    { weight: 5, arbitrary: fitting },
    { weight: 1, arbitrary: raw },
  ) as fc.Arbitrary<CommandInput>;

  const service = new FightService(new InMemoryEventStore());
  const fresh = async () => {
    const { fightId } = await service.create(setup.fight);
    for (const cmd of setup.opening) await service.execute(fightId, cmd);
    return fightId;
  };

  it('every setup command plays (the generator starts from a live fight)', async () => {
    const fightId = await fresh();
    expect((await service.view(fightId)).view.status).toBe('active');
  });

  it('generated commands: a decision or a refusal naming a field, never another error; a refusal leaves the log as it was; the log verifies', async () => {
    const unexpected: string[] = [];
    await fc.assert(
      fc.asyncProperty(fc.array(command, { minLength: 1, maxLength: 6 }), async (commands) => {
        const fightId = await fresh();
        for (const cmd of commands) {
          const before = (await service.events(fightId)).length;
          try {
            await service.execute(fightId, cmd);
          } catch (e) {
            if (!isRefusal(e))
              unexpected.push(`${JSON.stringify(cmd)} → ${e instanceof Error ? e.stack : String(e)}`);
            expect(isRefusal(e)).toBe(true);
            expect((await service.events(fightId)).length).toBe(before);
          }
        }
        const report = verifyFightLog(await service.exportLog(fightId));
        expect(report.ok).toBe(true);
      }),
      { numRuns: 400 },
    );
    expect(unexpected).toEqual([]);
  }, 900_000); // bounded by numRuns; a loaded machine is slow, never a reason to fail

  it('typo’d or unknown fields in any command are refused as UNKNOWN_FIELD naming the field', async () => {
    const fightId = await fresh();
    for (const [type, schema] of schemas) {
      const declared = new Set(Object.keys((schema as { properties?: object }).properties ?? {}));
      for (const typo of [
        'boots',
        'rounds',
        'responderedge',
        ...PROTO_NAMES.filter((n) => n !== '__proto__'),
      ]) {
        if (declared.has(typo)) continue;
        const before = (await service.events(fightId)).length;
        await expect(service.execute(fightId, { type, [typo]: 1 })).rejects.toMatchObject({
          code: 'UNKNOWN_FIELD',
          field: typo,
        });
        expect((await service.events(fightId)).length).toBe(before);
      }
    }
  });

  it('sheets generated from the sheet schema: a fight or a refusal naming a field under combatants[i].sheet, never another error', async () => {
    const sheet = jsonSchemaOf(system.contract.sheet);
    const combatant = fc.record({
      id: fc.constantFrom('a', 'b', 'toString'),
      name: fc.constant('A'),
      side: fc.constantFrom('heroes', 'enemies'),
      sheet: mostlyFitting(sheet as never, { ids: setup.ids }),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(combatant, { minLength: 1, maxLength: 2 }), async (combatants) => {
        try {
          await service.create({ system: systemId, dice: { mode: 'manual' }, combatants });
        } catch (e) {
          expect(isRefusal(e)).toBe(true);
          if (e instanceof RuleViolation && e.field) expect(e.field).toMatch(/^combatants(\[\d+\](\.|$)|$)/);
        }
      }),
      { numRuns: 300 },
    );
  }, 600_000);

  it('raw JSON as a whole sheet is refused, never another error', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(hostileValue, arbitraryOf({ type: 'object' })), async (sheet) => {
        await service
          .create({ system: systemId, dice: { mode: 'manual' }, combatants: [{ id: 'a', name: 'A', sheet }] })
          .catch((e) => expect(isRefusal(e)).toBe(true));
      }),
      { numRuns: 200 },
    );
  });
});
