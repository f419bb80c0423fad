import { checkCommand, ContractViolation, jsonSchemaOf } from '../../src/core/contract';
import { eventSchemasOf } from '../../src/core/lifecycle-contract';
import { RuleCommand, RuleEvent } from '../../src/core/types';
import { ManualDice } from '../../src/dice/manual';
import {
  archsoul,
  ARCHSOUL_COMMANDS,
  ARCHSOUL_COMMAND_SCHEMAS,
  ARCHSOUL_CONTRACT,
  ARCHSOUL_EVENT_SCHEMAS,
  ARCHSOUL_SHEET,
  validateSheet,
} from '../../src/archsoul';
import { fight, sheet, stateOf, sword, then } from './helpers';

type Json = Record<string, any>;

/** The JSON types a JSON Schema accepts (integer counts as number). */
function jsonTypes(s: Json): Set<string> {
  if (s.anyOf) return new Set(s.anyOf.flatMap((b: Json) => [...jsonTypes(b)]));
  if ('const' in s) return new Set([Array.isArray(s.const) ? 'array' : typeof s.const]);
  if (s.enum) return new Set(s.enum.map((v: unknown) => typeof v));
  return new Set([s.type === 'integer' ? 'number' : s.type]);
}

/** A value of a JSON type the schema does not accept. */
function wrongType(s: Json): unknown {
  const accepted = jsonTypes(s);
  const candidates: [string, unknown][] = [
    ['string', 'x'],
    ['number', 7],
    ['boolean', true],
    ['object', {}],
    ['array', []],
  ];
  return candidates.find(([t]) => !accepted.has(t))![1];
}

/** The smallest value a JSON Schema (as jsonSchemaOf writes it) accepts: required fields only. */
function sample(s: Json): unknown {
  if ('const' in s) return s.const;
  if (s.enum) return s.enum[0];
  if (s.anyOf) return sample(s.anyOf[0]);
  switch (s.type) {
    case 'object':
      return Object.fromEntries((s.required ?? []).map((k: string) => [k, sample(s.properties[k])]));
    case 'array':
      return s.prefixItems
        ? s.prefixItems.map(sample)
        : Array.from({ length: s.minItems ?? 0 }, () => sample(s.items));
    case 'string':
      return 'x'.repeat(Math.max(1, s.minLength ?? 1));
    case 'integer':
    case 'number':
      return Math.min(s.maximum ?? 0, Math.max(s.minimum ?? 0, 0));
    case 'boolean':
      return false;
  }
  throw new Error(`no sample for ${JSON.stringify(s)}`);
}

/** The refusal of `run`, which must be a ContractViolation. */
function violationOf(run: () => unknown): ContractViolation {
  try {
    run();
  } catch (e) {
    if (e instanceof ContractViolation) return e;
    throw e;
  }
  throw new Error('expected a ContractViolation, got none');
}

const TYPES = Object.keys(ARCHSOUL_COMMAND_SCHEMAS) as (keyof typeof ARCHSOUL_COMMAND_SCHEMAS)[];
const schemaOf = (type: string) => jsonSchemaOf(ARCHSOUL_CONTRACT.commands[type]) as Json;
const fieldsOf = (type: string) => Object.keys(schemaOf(type).properties).filter((k) => k !== 'type');
/** A started fight in round 1, so `decide` reaches each command's own reading. */
const started = stateOf(
  fight([
    { id: 'a', at: [0, 0] },
    { id: 'v', side: 'enemies', at: [0, -3], facing: 'S' },
  ]),
);
const decide = (command: RuleCommand) => archsoul.decide(started, command, new ManualDice({}));

describe('The Archsoul contract: every command declared once, strictly', () => {
  it('every command type of ARCHSOUL_COMMANDS has a schema, and every schema a command type', () => {
    expect(Object.keys(ARCHSOUL_COMMAND_SCHEMAS).sort()).toEqual(Object.keys(ARCHSOUL_COMMANDS).sort());
    for (const type of TYPES) expect(ARCHSOUL_CONTRACT.commands[type]).toBe(ARCHSOUL_COMMAND_SCHEMAS[type]);
  });

  it.each(TYPES)('%s: the smallest command its schema allows passes the contract', (type) => {
    const command = { type, ...(sample(schemaOf(type)) as object) } as RuleCommand;
    expect(checkCommand(ARCHSOUL_CONTRACT.commands, command)).toEqual(command);
  });

  it.each(TYPES)(
    '%s: a typo’d field is refused with UNKNOWN_FIELD naming it, at the edge and in decide',
    (type) => {
      const base = { type, ...(sample(schemaOf(type)) as object) };
      const fields = fieldsOf(type);
      // Each field misspelt (its last letter dropped); a command with no fields of its own gets another's.
      const typos = fields
        .filter((f) => !['dice', 'rerollFaces', 'followUpFaces'].includes(f))
        .map((f) => f.slice(0, -1))
        .filter((t) => !fields.includes(t));
      for (const typo of typos.length > 0 ? typos : ['combatantId']) {
        const command = { ...base, [typo]: 1 } as RuleCommand;
        expect(violationOf(() => checkCommand(ARCHSOUL_CONTRACT.commands, command))).toMatchObject({
          code: 'UNKNOWN_FIELD',
          field: typo,
        });
        expect(violationOf(() => decide(command))).toMatchObject({ code: 'UNKNOWN_FIELD', field: typo });
      }
    },
  );

  it.each(TYPES)(
    '%s: a wrong JSON type in each field is refused with INVALID_FIELD naming it, at the edge and in decide',
    (type) => {
      const schema = schemaOf(type);
      const base = { type, ...(sample(schema) as object) };
      for (const field of fieldsOf(type)) {
        const command = { ...base, [field]: wrongType(schema.properties[field]) } as RuleCommand;
        expect(violationOf(() => checkCommand(ARCHSOUL_CONTRACT.commands, command))).toMatchObject({
          code: 'INVALID_FIELD',
          field,
        });
        expect(violationOf(() => decide(command))).toMatchObject({ code: 'INVALID_FIELD', field });
      }
    },
  );

  it('the brief’s examples: "boots" for "boost" and dice as a string are refused naming them', () => {
    const attack = { type: 'Attack', attackerId: 'a', targetId: 'v' };
    expect(
      violationOf(() => checkCommand(ARCHSOUL_CONTRACT.commands, { ...attack, kockdown: true })),
    ).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'kockdown' });
    expect(
      violationOf(() => checkCommand(ARCHSOUL_CONTRACT.commands, { ...attack, dice: '6,6' })),
    ).toMatchObject({ code: 'INVALID_FIELD', field: 'dice' });
    expect(
      violationOf(() =>
        checkCommand(ARCHSOUL_CONTRACT.commands, { ...attack, cleave: { spaces: [{ x: 0, y: -1, z: 2 }] } }),
      ),
    ).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'cleave.spaces[0].z' });
    expect(
      violationOf(() => checkCommand(ARCHSOUL_CONTRACT.commands, { ...attack, feint: { facing: 'UP' } })),
    ).toMatchObject({ code: 'INVALID_FIELD', field: 'feint.facing' });
  });
});

describe('The Archsoul sheet: declared once, strictly', () => {
  const sheetSchema = jsonSchemaOf(ARCHSOUL_SHEET) as Json;
  const start = (s: unknown) => ({
    type: 'StartFight',
    dice: { mode: 'manual', commitment: '0'.repeat(64) },
    combatants: [{ name: 'A', sheet: s }],
  });

  it('the smallest sheet passes; every field misspelt is refused with UNKNOWN_FIELD naming its path', () => {
    const smallest = sample(sheetSchema) as Json;
    expect(checkCommand(ARCHSOUL_CONTRACT.commands, start(smallest))).toBeTruthy();
    for (const field of Object.keys(sheetSchema.properties)) {
      expect(
        violationOf(() =>
          checkCommand(ARCHSOUL_CONTRACT.commands, start({ ...smallest, [field.slice(0, -1)]: 1 })),
        ),
      ).toMatchObject({ code: 'UNKNOWN_FIELD', field: `combatants[0].sheet.${field.slice(0, -1)}` });
    }
    expect(
      violationOf(() => validateSheet({ ...sheet(), weapons: [{ ...sword, damge: 3 }] }, 'sheet')),
    ).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'sheet.weapons[0].damge' });
  });

  it('a wrong JSON type in each field of the sheet, a weapon and an item is refused with INVALID_FIELD naming it', () => {
    const weapon = sheetSchema.properties.weapons.items as Json;
    const item = sheetSchema.properties.items.items as Json;
    const smallest = sample(sheetSchema) as Json;
    for (const field of Object.keys(sheetSchema.properties)) {
      expect(
        violationOf(() =>
          validateSheet({ ...smallest, [field]: wrongType(sheetSchema.properties[field]) }, 's'),
        ),
      ).toMatchObject({ code: 'INVALID_FIELD', field: `s.${field}` });
    }
    for (const [list, schema] of [
      ['weapons', weapon],
      ['items', item],
    ] as const) {
      for (const field of Object.keys(schema.properties)) {
        const bad = { ...(sample(schema) as Json), [field]: wrongType(schema.properties[field]) };
        expect(violationOf(() => validateSheet({ ...smallest, [list]: [bad] }, 's'))).toMatchObject({
          code: 'INVALID_FIELD',
          field: `s.${list}[0].${field}`,
        });
      }
    }
  });

  it('names every object has are refused as ids and skill names, where a lookup would find Object.prototype', () => {
    for (const name of ['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf']) {
      expect(
        violationOf(() => validateSheet(sheet({ weapons: [{ ...sword, id: name }] }), 's')),
      ).toMatchObject({ code: 'INVALID_FIELD', field: 's.weapons[0].id' });
      expect(
        violationOf(() => validateSheet(sheet({ items: [{ id: name, name: 'Rope' }] }), 's')),
      ).toMatchObject({ code: 'INVALID_FIELD', field: 's.items[0].id' });
      expect(violationOf(() => validateSheet(sheet({ shield: { id: name, bonus: 1 } }), 's'))).toMatchObject({
        code: 'INVALID_FIELD',
        field: 's.shield.id',
      });
    }
    for (const name of ['toString', 'constructor', 'hasOwnProperty', 'valueOf']) {
      expect(violationOf(() => validateSheet(sheet({ skills: { [name]: 1 } }), 's'))).toMatchObject({
        code: 'INVALID_FIELD',
        field: `s.skills.${name}`,
      });
    }
  });

  it('a creature named like an Object.prototype member is an ordinary creature to a sneak attack, not a crash or a false refusal', () => {
    let events = fight([
      { id: 'a', at: [0, 0], sheet: sheet({ skills: { ...(sheet().skills as object), engineering: 0 } }) },
      { id: 'v', side: 'enemies', at: [0, -1], facing: 'N', sheet: sheet({ creature: 'constructor' }) },
    ]);
    events = then(events, { type: 'ApplyCondition', combatantId: 'v', condition: 'unaware' });
    for (let i = 0; i < 3; i++)
      events = then(events, { type: i === 0 ? 'Study' : 'Study', combatantId: 'a', targetId: 'v' });
    events = then(
      then(then(events, { type: 'EndTurn', combatantId: 'a' }), { type: 'EndTurn', combatantId: 'v' }),
      { type: 'StartRound' },
    );
    const out = archsoul.decide(
      stateOf(events),
      { type: 'Attack', attackerId: 'a', targetId: 'v', weaponId: 'sword', sneak: true },
      new ManualDice({ dice: [1, 1, 1, 1] }),
    );
    expect(out.map((e) => e.type)).toContain('ExchangeResolved');
  });

  it('a sheet as validated passes the declaration again (CombatantJoined holds it)', () => {
    const s = {
      ...sheet(),
      weapons: [sword, { id: 'bow', name: 'Bow', type: 'ranged', damage: 2, accurateRange: 5 }],
      shield: { bonus: 1 },
      mount: { speed: 5 },
    };
    const once = validateSheet(s, 'sheet');
    expect(validateSheet(JSON.parse(JSON.stringify(once)), 'sheet')).toEqual(once);
  });
});

/** The scenario suites whose fights this file replays, recording every event `decide` emits. */
const SCENARIOS = [
  'acting-combatant',
  'arcs',
  'combat',
  'critical',
  'falling',
  'hands',
  'improvised-weapons',
  'jumping',
  'maneuvers',
  'mount-dismount',
  'mounted-combat',
  'phase-end',
  'reactive-attacks',
  'reactive-grab',
  'resume-action',
  'rituals',
  'rulings',
  'shared-space',
  'shatter',
  'stances-grapples',
  'view',
];

describe('Every event decide emits is its declared data (the scenarios replayed)', () => {
  const decided: RuleEvent[] = [];
  const original = archsoul.decide;
  beforeAll(() => {
    archsoul.decide = (state, command, dice) => {
      const out = original(state, command, dice);
      decided.push(...out);
      return out;
    };
  });
  afterAll(() => {
    archsoul.decide = original;
  });

  describe.each(SCENARIOS)('%s', (file) => {
    // eslint-disable-next-line @typescript-eslint/no-require-imports -- each scenario suite runs inside this one, so its decisions are recorded
    require(`./${file}.unit.spec`);
  });

  it('each event’s data parses with its schema (strict: nothing more, nothing less), lifecycle ones with the core’s', () => {
    const schemas = eventSchemasOf(ARCHSOUL_CONTRACT);
    expect(decided.length).toBeGreaterThan(1000);
    const wrong = decided.flatMap((e, i) => {
      // What the contract publishes: a lifecycle event it leaves out (S17: the activations) is not declared.
      if (!Object.hasOwn(schemas, e.type)) return [`#${i} ${e.type}: not declared`];
      const r = schemas[e.type].safeParse(e.data);
      return r.success
        ? []
        : [`#${i} ${e.type}: ${r.error.issues.map((x) => `${x.path.join('.')} ${x.message}`).join('; ')}`];
    });
    expect(wrong.slice(0, 10)).toEqual([]);
  });

  it('S17: no scenario emits ActivationStarted or ActivationEnded, the lifecycle events the contract leaves out', () => {
    expect(ARCHSOUL_CONTRACT.lifecycleEventsNotEmitted).toEqual(['ActivationStarted', 'ActivationEnded']);
    expect(decided.filter((e) => e.type.startsWith('Activation')).map((e) => e.type)).toEqual([]);
    expect(decided.map((e) => e.type)).toEqual(expect.arrayContaining(['RoundStarted', 'TurnStarted']));
  });

  it('every declared event type is emitted by the scenarios (no declaration without a use)', () => {
    const seen = new Set(decided.map((e) => e.type));
    expect(Object.keys(ARCHSOUL_EVENT_SCHEMAS).filter((t) => !seen.has(t))).toEqual([]);
  });
});
