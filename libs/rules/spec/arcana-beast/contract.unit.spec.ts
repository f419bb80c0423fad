import { z } from 'zod';
import { checkCommand, ContractViolation, jsonSchemaOf } from '../../src/core/contract';
import { RuleCommand } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import {
  ARCANA_BEAST_COMMAND_SCHEMAS,
  ARCANA_BEAST_CONTRACT,
  ARCANA_BEAST_LIFECYCLE_OVERRIDES,
  ARCANA_COMMANDS,
  arcanaBeast,
} from '../../src/arcana-beast';
import { binder, close, exact, fight, find, party, refused, stateOf, wild } from './helpers';

/**
 * The contract of every Arcana Beast command, derived from the declarations themselves (no field is listed
 * here by hand): a valid command of each type is built from its JSON Schema, then each field is misspelt
 * and given a value of the wrong JSON type.
 */
type JsonSchema = {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  minimum?: number;
  items?: JsonSchema;
  pattern?: string;
};

const OWN = { ...ARCANA_BEAST_COMMAND_SCHEMAS, ...ARCANA_BEAST_LIFECYCLE_OVERRIDES };
const COMMANDS: Array<{ type: string; schema: z.ZodObject; json: JsonSchema }> = Object.entries(OWN).map(
  ([type, schema]) => ({ type, schema: schema as z.ZodObject, json: jsonSchemaOf(schema) }),
);

/** A value the schema accepts: the first enum value, the minimum, an id, an empty list, an object of its required fields. */
function sample(s: JsonSchema): unknown {
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  if (s.anyOf) return sample(s.anyOf[0]);
  switch (Array.isArray(s.type) ? s.type[0] : s.type) {
    case 'string':
      return 'ember';
    case 'integer':
    case 'number':
      return Math.max(s.minimum ?? 0, 0);
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return Object.fromEntries((s.required ?? []).map((k) => [k, sample(s.properties![k])]));
    default:
      throw new Error(`no sample for ${JSON.stringify(s)}`);
  }
}

/** The JSON types a field accepts. */
function jsonTypes(s: JsonSchema): Set<string> {
  if (s.anyOf) return new Set(s.anyOf.flatMap((x) => [...jsonTypes(x)]));
  const of = (v: unknown) =>
    Array.isArray(v) ? 'array' : v === null ? 'null' : Number.isInteger(v) ? 'integer' : typeof v;
  if (s.const !== undefined) return new Set([of(s.const)]);
  if (s.enum) return new Set(s.enum.map(of));
  const types = Array.isArray(s.type) ? s.type : [s.type ?? 'any'];
  return new Set(types.flatMap((t) => (t === 'number' ? ['number', 'integer'] : [t])));
}

/** A value of a JSON type the field does not accept. */
function wrongType(s: JsonSchema): unknown {
  const accepted = jsonTypes(s);
  const candidates: [string, unknown][] = [
    ['string', 'seven'],
    ['integer', 7],
    ['boolean', true],
    ['array', [7]],
    ['object', { seven: 7 }],
    ['null', null],
  ];
  return candidates.find(([t]) => !accepted.has(t))![1];
}

function refusal(cmd: Record<string, unknown>): ContractViolation {
  try {
    checkCommand(ARCANA_BEAST_CONTRACT.commands, cmd as RuleCommand);
  } catch (e) {
    if (e instanceof ContractViolation) return e;
    throw e;
  }
  throw new Error(`accepted ${JSON.stringify(cmd)}`);
}

/** boost → boots: the last two letters swapped, or a letter added when that spells the same. */
const typo = (field: string) =>
  field.length > 1 && field.at(-1) !== field.at(-2)
    ? `${field.slice(0, -2)}${field.at(-1)}${field.at(-2)}`
    : `${field}s`;

/** Ember's turn, Close to the wolf: the decider is reached by every command. */
const start = close(fight(party, 'ember'), 'ember', 'wolf');

describe('The Arcana Beast contract: every command declared once, strictly', () => {
  it('declares a schema for every command type the system lists, and lists every command it declares', () => {
    expect(Object.keys(ARCANA_BEAST_COMMAND_SCHEMAS).sort()).toEqual(Object.keys(ARCANA_COMMANDS).sort());
    for (const [type, schema] of Object.entries(ARCANA_BEAST_COMMAND_SCHEMAS))
      expect(schema.shape.type.value).toBe(type);
    for (const type of Object.keys(ARCANA_COMMANDS))
      expect(ARCANA_BEAST_CONTRACT.commands[type]).toBe(
        ARCANA_BEAST_COMMAND_SCHEMAS[type as keyof typeof ARCANA_BEAST_COMMAND_SCHEMAS],
      );
    expect(Object.keys(arcanaBeast.commands).sort()).toEqual(
      Object.keys(ARCANA_BEAST_CONTRACT.commands)
        .filter((t) => t !== 'ProvideDice' && t !== 'UndoCommands')
        .sort(),
    );
  });

  it('RollInitiative takes this system’s surprised (RULINGS.md A29) and the lifecycle’s tieBreak', () => {
    expect(
      checkCommand(ARCANA_BEAST_CONTRACT.commands, {
        type: 'RollInitiative',
        surprised: ['bo'],
        tieBreak: ['ember'],
      }),
    ).toMatchObject({ surprised: ['bo'] });
    expect(refusal({ type: 'RollInitiative', surprized: ['bo'] })).toMatchObject({
      code: 'UNKNOWN_FIELD',
      field: 'surprized',
    });
  });

  it.each(COMMANDS.map((c) => [c.type, c]))(
    '%s: the command built from its declaration is accepted',
    (_type, { type, json }) => {
      const cmd = { ...(sample(json) as object), type };
      expect(checkCommand(ARCANA_BEAST_CONTRACT.commands, cmd as RuleCommand)).toEqual(cmd);
    },
  );

  const fields = COMMANDS.flatMap(({ type, json }) =>
    Object.keys(json.properties!)
      .filter((f) => f !== 'type')
      .map((field) => [`${type}.${field}`, type, field, json] as const),
  );

  it.each(fields)(
    '%s misspelt is refused as UNKNOWN_FIELD naming the misspelling, by the contract and by the decider',
    (_name, type, field, json) => {
      const wrong = typo(field);
      expect(json.properties![wrong]).toBeUndefined();
      const cmd = { ...(sample(json) as object), type, [wrong]: sample(json.properties![field]) };
      const e = refusal(cmd);
      expect(e).toMatchObject({ code: 'UNKNOWN_FIELD', field: wrong });
      expect(e.message).toBe(`${wrong} is not a field of ${type}`);
      expect(refused(start, cmd)).toMatchObject({ code: 'UNKNOWN_FIELD', field: wrong });
    },
  );

  it.each(fields)(
    '%s of the wrong JSON type is refused as INVALID_FIELD naming it, by the contract and by the decider',
    (_name, type, field, json) => {
      const value = wrongType(json.properties![field]);
      const cmd = { ...(sample(json) as object), type, [field]: value };
      const e = refusal(cmd);
      expect(e).toMatchObject({ code: 'INVALID_FIELD', field });
      expect(e.issues).toHaveLength(1);
      const v = refused(start, cmd);
      expect(v).toBeInstanceOf(RuleViolation);
      expect(v).toMatchObject({ code: 'INVALID_FIELD', field: e.field });
    },
  );

  it.each<[string, Record<string, unknown>, string, string]>([
    [
      'Attack with boots for bonusDice',
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', boots: 2 },
      'UNKNOWN_FIELD',
      'boots',
    ],
    [
      'dice as a string',
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', dice: '6,4' },
      'INVALID_FIELD',
      'dice',
    ],
    [
      'bonusDice beyond the GM’s five (RULINGS.md A30)',
      { type: 'Attack', attackerId: 'ember', targetId: 'wolf', bonusDice: 6 },
      'INVALID_FIELD',
      'bonusDice',
    ],
    ['an Evolve to Stage 5', { type: 'Evolve', combatantId: 'ember', stage: 5 }, 'INVALID_FIELD', 'stage'],
    [
      'a Difficulty that is a fraction',
      { type: 'RollTest', combatantId: 'ember', stat: 'spirit', difficulty: 1.5 },
      'INVALID_FIELD',
      'difficulty',
    ],
    [
      'difficult terrain of 11',
      { type: 'SetBand', aId: 'ember', bId: 'wolf', band: 'near', difficultTerrain: 11 },
      'INVALID_FIELD',
      'difficultTerrain',
    ],
    [
      'a combatant id that is no id',
      { type: 'Defend', combatantId: 'ember!' },
      'INVALID_FIELD',
      'combatantId',
    ],
    ['a tag nobody has', { type: 'SetTag', combatantId: 'ember', tag: 'toString' }, 'INVALID_FIELD', 'tag'],
    [
      'a stat nobody has',
      { type: 'RollOpposedTest', aId: 'ember', aStat: 'constructor', bId: 'wolf' },
      'INVALID_FIELD',
      'aStat',
    ],
    [
      'a condition of 61 characters',
      { type: 'ApplyCondition', combatantId: 'ember', condition: 'x'.repeat(61) },
      'INVALID_FIELD',
      'condition',
    ],
  ])('%s is refused (%s %s)', (_what, cmd, code, field) => {
    expect(refusal(cmd)).toMatchObject({ code, field });
    expect(refused(start, cmd as RuleCommand)).toMatchObject({ code, field });
  });

  it.each<[string, Record<string, unknown>, string]>([
    [
      'Encourage removing a condition names none',
      { type: 'Encourage', combatantId: 'ash', effect: 'removeCondition' },
      'condition',
    ],
    [
      'a Reposition toward someone names no band',
      { type: 'Reposition', combatantId: 'ember', towardId: 'wolf' },
      'band',
    ],
    ['a Zero Power that attacks names no target', { type: 'UseZeroPower', attackerId: 'ember' }, 'targetId'],
    [
      'a salve (it removes a condition) names none',
      { type: 'UseItem', combatantId: 'ash', itemId: 'salve' },
      'condition',
    ],
  ])(
    'a field the contract leaves optional but this use needs: %s (INVALID_FIELD %s)',
    (_what, cmd, field) => {
      const ready =
        cmd.type === 'UseZeroPower'
          ? [
              ...start,
              { type: 'TriggerSet', data: { combatantId: 'ember', kind: 'zeroPower', active: true } },
            ]
          : start;
      expect(checkCommand(ARCANA_BEAST_CONTRACT.commands, cmd as RuleCommand)).toEqual(cmd);
      const v = refused(ready, cmd as RuleCommand);
      expect(v).toMatchObject({ code: 'INVALID_FIELD', field });
      expect(v.message).toMatch(new RegExp(`^${field} is required `));
    },
  );
});

describe('A declared field this use of the command would ignore is refused, naming it', () => {
  it.each<[string, Record<string, unknown>, string]>([
    [
      'a band on a Reposition toward nobody',
      { type: 'Reposition', combatantId: 'ember', band: 'far' },
      'band',
    ],
    [
      'a movement on a Reposition toward nobody',
      { type: 'Reposition', combatantId: 'ember', using: 'flight' },
      'using',
    ],
    [
      'a condition with Encourage’s dodgeDie',
      { type: 'Encourage', combatantId: 'ash', condition: 'dazed' },
      'condition',
    ],
    [
      'a condition with a potion (it removes none)',
      { type: 'UseItem', combatantId: 'ash', itemId: 'potion', condition: 'dazed' },
      'condition',
    ],
    [
      'a Stage with a Zero Power’s trigger',
      { type: 'SetTrigger', combatantId: 'ember', kind: 'zeroPower', stage: 3 },
      'stage',
    ],
  ])('%s (INVALID_FIELD %s)', (_what, cmd, field) => {
    expect(checkCommand(ARCANA_BEAST_CONTRACT.commands, cmd as RuleCommand)).toEqual(cmd);
    const v = refused(start, cmd as RuleCommand);
    expect(v).toMatchObject({ code: 'INVALID_FIELD', field });
    expect(v.message).toMatch(new RegExp(`^${field} is not used `));
  });
});

describe('Names every JavaScript object has are ids and sides like any other (tables are looked up by own entries)', () => {
  const fighters = [
    { id: 'valueOf', sheet: wild({ hp: 3 }), side: 'toString' },
    { id: 'constructor', sheet: wild(), side: 'hasOwnProperty' },
  ];

  it('a wild beast called valueOf starts its turn with no Binder, and its side toString counts its own turns', () => {
    const e = close(fight(fighters, 'valueOf'), 'valueOf', 'constructor');
    expect(e.find((x) => x.type === 'TurnStarted')!.data).toEqual({ combatantId: 'valueOf' });
    const out = exact(
      e,
      { type: 'Attack', attackerId: 'valueOf', targetId: 'constructor' },
      { dice: [6, 6, 1, 1] },
    );
    expect(find(out, 'AttackResolved').combo).toMatchObject({ side: 'toString', sideTurn: 1, position: 1 });
    expect(stateOf([...e, ...out]).sideTurns).toEqual({ toString: 1 });
  });

  it('a Binder naming a beast that is not there (beastId toString) is no Binder of anyone', () => {
    const e = fight([...fighters, { id: 'ash', sheet: binder('toString'), side: 'toString' }], 'valueOf');
    const s = stateOf(e);
    expect(s.turn).toMatchObject({ beastId: 'valueOf' });
    expect(s.turn!.binderId).toBeUndefined();
    expect(refused(e, { type: 'Direct', combatantId: 'ash' })).toMatchObject({
      code: 'ARCANA_NOT_YOUR_TURN',
      field: 'combatantId',
    });
  });
});
