import { z } from 'zod';
import {
  checkCommand,
  command,
  Int,
  ContractViolation,
  fieldPath,
  Id,
  jsonSchemaOf,
} from '../../src/core/contract';
import { RuleViolation } from '../../src/core/violation';

const schemas = {
  Hit: command('Hit', 'A test command.', {
    attackerId: Id,
    boost: Int.min(0).max(30).optional(),
    kind: z.enum(['melee', 'ranged']),
    response: z
      .strictObject({ response: z.enum(['none', 'clash']), boost: z.int().min(0).optional() })
      .optional(),
    path: z
      .array(z.strictObject({ x: z.int(), y: z.int() }))
      .max(3)
      .optional(),
  }),
};

function refusal(cmd: Record<string, unknown>): ContractViolation {
  try {
    checkCommand(schemas, cmd as never);
  } catch (e) {
    if (e instanceof ContractViolation) return e;
    throw e;
  }
  throw new Error('accepted');
}

describe('the contract: commands checked against their one declaration', () => {
  const ok = { type: 'Hit', attackerId: 'mira', kind: 'melee' };

  it('accepts a command with its declared fields and the manual dice fields', () => {
    expect(checkCommand(schemas, { ...ok, boost: 2, dice: [6, 4], followUpFaces: [1] })).toMatchObject({
      boost: 2,
    });
  });

  it('leaves a type no schema declares to decide (UNKNOWN_COMMAND there)', () => {
    expect(checkCommand(schemas, { type: 'Nope', x: 1 })).toEqual({ type: 'Nope', x: 1 });
    expect(checkCommand(schemas, { type: 'toString' })).toEqual({ type: 'toString' });
  });

  it('refuses a typo as UNKNOWN_FIELD naming it, and every other failing field in issues', () => {
    const e = refusal({ ...ok, boots: 2, responderedge: 'x' });
    expect(e).toBeInstanceOf(RuleViolation);
    expect(e).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'boots' });
    expect(e.issues.map((i) => [i.code, i.field])).toEqual([
      ['UNKNOWN_FIELD', 'boots'],
      ['UNKNOWN_FIELD', 'responderedge'],
    ]);
    expect(e.message).toMatch(/^boots is not a field of Hit/);
  });

  it('names nested unknown fields by their path', () => {
    expect(refusal({ ...ok, response: { response: 'none', bost: 1 } })).toMatchObject({
      code: 'UNKNOWN_FIELD',
      field: 'response.bost',
    });
    expect(
      refusal({
        ...ok,
        path: [
          { x: 1, y: 1 },
          { x: 1, y: 2, z: 0 },
        ],
      }),
    ).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'path[1].z' });
  });

  it('refuses an own __proto__ key anywhere (JSON.parse makes one; records would drop it silently)', () => {
    expect(
      refusal(JSON.parse('{"type":"Hit","attackerId":"mira","kind":"melee","__proto__":{"boost":3}}')),
    ).toMatchObject({ code: 'UNKNOWN_FIELD', field: '__proto__' });
    expect(
      refusal(
        JSON.parse('{"type":"Hit","attackerId":"mira","kind":"melee","path":[{"x":1,"y":1,"__proto__":1}]}'),
      ),
    ).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'path[0].__proto__' });
  });

  it.each([
    [{ boost: '2' }, 'boost', 'boost must be an integer'],
    [{ boost: 2.5 }, 'boost', 'boost must be an integer'],
    [{ boost: 31 }, 'boost', 'boost must be at most 30'],
    [{ boost: -1 }, 'boost', 'boost must be at least 0'],
    [{ boost: 1e19 }, 'boost', 'boost must be at most 30'],
    [{ kind: 'magic' }, 'kind', 'kind must be one of melee, ranged'],
    [{ attackerId: 'toString()' }, 'attackerId', 'attackerId must be an id'],
    [{ attackerId: undefined }, 'attackerId', 'attackerId is required'],
    [{ dice: '6,4,2' }, 'dice', 'dice must be an array'],
    [{ dice: ['6'] }, 'dice[0]', 'dice[0] must be an integer'],
    [{ dice: [6, 1.5] }, 'dice[1]', 'dice[1] must be an integer'],
    [{ dice: { 0: 6 } }, 'dice', 'dice must be an array'],
    [{ path: [{ x: 1 }] }, 'path[0].y', 'path[0].y is required'],
    [{ path: [1, 2, 3, 4] }, 'path', 'path must have at most 3 items'],
    [{ response: 'none' }, 'response', 'response must be an object'],
  ])('refuses %j as INVALID_FIELD %s', (patch, field, message) => {
    const e = refusal({ ...ok, ...patch });
    expect(e).toMatchObject({ code: 'INVALID_FIELD', field });
    expect(e.message.startsWith(message)).toBe(true);
  });

  it('writes paths the way every refusal of the service does', () => {
    expect(fieldPath('', ['combatants', 0, 'sheet', 'weapons', 2, 'id'])).toBe(
      'combatants[0].sheet.weapons[2].id',
    );
    expect(fieldPath('combatant', ['sheet'])).toBe('combatant.sheet');
  });

  it('publishes a JSON Schema that refuses unknown fields and requires what the command needs', () => {
    const s = jsonSchemaOf(schemas.Hit) as {
      additionalProperties: boolean;
      required: string[];
      properties: Record<string, { const?: string }>;
    };
    expect(s.additionalProperties).toBe(false);
    expect(s.required).toEqual(['type', 'attackerId', 'kind']);
    expect(s.properties.type.const).toBe('Hit');
  });
});
