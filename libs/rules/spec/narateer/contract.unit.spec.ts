import { z } from 'zod';
import { checkCommand, ContractViolation, jsonSchemaOf } from '../../src/core/contract';
import { RuleCommand } from '../../src/core/types';
import { RuleViolation } from '../../src/core/violation';
import {
  NARATEER_COMMAND_SCHEMAS,
  NARATEER_COMMANDS,
  NARATEER_CONTRACT,
  narateer,
  NarateerCommandType,
  validateSheet,
} from '../../src/narateer';
import { fightStarted, given } from '../given';
import { bow, crossbow, fight, melee, mira, orin, sheet, spear, sword } from './helpers';

/** The refusal of `run`, which must be one. */
function refusal(run: () => unknown): RuleViolation {
  try {
    run();
  } catch (e) {
    if (e instanceof RuleViolation) return e;
    throw e;
  }
  throw new Error('accepted');
}

const startWith = (s: unknown) =>
  given(narateer, []).when({
    type: 'StartFight',
    dice: { mode: 'manual', commitment: 'a'.repeat(64) },
    combatants: [{ name: 'X', sheet: s }],
  });

describe('Narateer contract: the sheet', () => {
  it('accepts every sheet of the examples and folds it as before', () => {
    const s = validateSheet(
      sheet({
        weapons: [sword, spear, bow, crossbow],
        woundPreference: 'ASK',
        responsePolicy: { response: 'clash', boost: 1, weaponId: 'spear', fallback: 'none' },
      }),
      'sheet',
    );
    expect(s.weapons.map((w) => [w.id, w.kind, w.reach, w.effectiveRange ?? null])).toEqual([
      ['sword', 'melee', 1, null],
      ['spear', 'melee', 2, null],
      ['bow', 'ranged', 0, 12],
      ['crossbow', 'ranged', 0, 10],
    ]);
    expect(s.responsePolicy).toEqual({ response: 'clash', boost: 1, fallback: 'none', weaponId: 'spear' });
    expect(
      validateSheet(sheet({ weapons: [{ ...bow, ammunition: null }] }), 'sheet').weapons[0].ammunition,
    ).toBeUndefined();
  });

  it.each([
    ['a typo at the top', { maxVitalty: 8 }, 'maxVitalty'],
    [
      'a typo in vitals',
      { vitals: { strength: 2, agility: 2, resilience: 2, strenght: 3 } },
      'vitals.strenght',
    ],
    ['a Skill the rules do not have', { skills: { melee: 1, stealth: 2 } }, 'skills.stealth'],
    ['a typo in a weapon', { weapons: [sword, { ...spear, baseAtackCost: 2 }] }, 'weapons[1].baseAtackCost'],
    [
      'reach on a ranged weapon (ranged weapons have no reach)',
      { weapons: [{ ...bow, reach: 3 }] },
      'weapons[0].reach',
    ],
    [
      'a range on a melee weapon (melee weapons have reach)',
      { weapons: [{ ...sword, maximumRange: 3 }] },
      'weapons[0].maximumRange',
    ],
    ['a typo in armour', { armour: { soke: 1 } }, 'armour.soke'],
    [
      'a typo in the harm object',
      { weapons: [{ ...sword, harm: { domain: 'Physical', type: 'Slashing', kind: 'x' } }] },
      'weapons[0].harm.kind',
    ],
    ['a typo in responsePolicy', { responsePolicy: { response: 'clash', bost: 1 } }, 'responsePolicy.bost'],
    ['"__proto__" as a JSON key', JSON.parse('{"__proto__": {"maxVitality": 1}}'), '__proto__'],
  ])(
    'a field the sheet does not have is refused as UNKNOWN_FIELD naming it: %s',
    (_name, overrides, field) => {
      const v = startWith(sheet(overrides)).violation();
      expect(v).toMatchObject({ code: 'UNKNOWN_FIELD', field: `combatants[0].sheet.${field}` });
    },
  );

  it.each([
    ['the sheet a string', 'warrior', ''],
    ['vitals a list', { vitals: [2, 2, 2] }, '.vitals'],
    ['maxAD a string', { maxAD: '5' }, '.maxAD'],
    ['maxAD a fraction', { maxAD: 4.5 }, '.maxAD'],
    ['maxVitality beyond 100', { maxVitality: 101 }, '.maxVitality'],
    ['a weapon a string', { weapons: ['sword'] }, '.weapons[0]'],
    ['weight a number', { weapons: [{ ...sword, weight: 1 }] }, '.weapons[0].weight'],
    ['harm a number', { weapons: [{ ...sword, harm: 3 }] }, '.weapons[0].harm'],
    ['harm not "Domain (Type)"', { weapons: [{ ...sword, harm: 'slashing' }] }, '.weapons[0].harm'],
    [
      'a harm Domain not in the catalogue, as text',
      { weapons: [{ ...sword, harm: 'Magical (Fire)' }] },
      '.weapons[0].harm',
    ],
    [
      'a harm Domain not in the catalogue, as an object',
      { weapons: [{ ...sword, harm: { domain: 'Magical', type: 'Fire' } }] },
      '.weapons[0].harm.domain',
    ],
    ['armour a number', { armour: 3 }, '.armour'],
    ['responsePolicy a string', { responsePolicy: 'clash' }, '.responsePolicy'],
    [
      'a policy weaponId not an id',
      { responsePolicy: { response: 'clash', weaponId: 'my sword' } },
      '.responsePolicy.weaponId',
    ],
    [
      'more than 20 weapons',
      { weapons: Array.from({ length: 21 }, (_, i) => ({ ...sword, id: `w${i}` })) },
      '.weapons',
    ],
  ])('a wrong JSON type or range is refused as INVALID_FIELD naming it: %s', (_name, overrides, field) => {
    const v = startWith(typeof overrides === 'string' ? overrides : sheet(overrides)).violation();
    expect(v).toMatchObject({ code: 'INVALID_FIELD', field: `combatants[0].sheet${field}` });
  });

  it('every failing field is listed, the first named', () => {
    const v = refusal(() =>
      validateSheet(sheet({ maxAD: 'x', maxVitalty: 3, weapons: [{ ...sword, weaponDamage: -1 }] }), 'sheet'),
    );
    expect(v).toBeInstanceOf(ContractViolation);
    expect((v as ContractViolation).issues.map((i) => [i.code, i.field])).toEqual(
      expect.arrayContaining([
        ['UNKNOWN_FIELD', 'sheet.maxVitalty'],
        ['INVALID_FIELD', 'sheet.maxAD'],
        ['INVALID_FIELD', 'sheet.weapons[0].weaponDamage'],
      ]),
    );
  });

  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'])(
    'names every JavaScript object has are refused where they are looked up: %s',
    (name) => {
      // Weapons are kept by id in the fight state; harm Domains are keys of the catalogue.
      expect(startWith(sheet({ weapons: [{ ...sword, id: name }] })).violation()).toMatchObject({
        code: 'INVALID_FIELD',
        field: 'combatants[0].sheet.weapons[0].id',
      });
      expect(
        startWith(sheet({ weapons: [{ ...sword, harm: `${name} (Slashing)` }] })).violation(),
      ).toMatchObject({ code: 'INVALID_FIELD', field: 'combatants[0].sheet.weapons[0].harm' });
      expect(
        startWith(sheet({ weapons: [{ ...sword, harm: { domain: name, type: 'Slashing' } }] })).violation(),
      ).toMatchObject({ code: 'INVALID_FIELD', field: 'combatants[0].sheet.weapons[0].harm.domain' });
    },
  );
});

/** One valid command of each type (only the required fields): what each derived case below starts from. */
const EXAMPLES: { [K in NarateerCommandType]: z.input<(typeof NARATEER_COMMAND_SCHEMAS)[K]> } = {
  DeclareExchange: {
    type: 'DeclareExchange',
    attackerId: 'mira',
    targetId: 'orin',
    kind: 'melee',
    weaponId: 'sword',
  },
  RespondToExchange: { type: 'RespondToExchange', combatantId: 'orin', response: 'clash' },
  AllocateWounds: { type: 'AllocateWounds', combatantId: 'orin', allocation: ['AD'] },
  ApplyWounds: { type: 'ApplyWounds', combatantId: 'orin', wounds: 2, harm: 'Elemental (Fire)' },
  ReloadWeapon: { type: 'ReloadWeapon', combatantId: 'veyr', weaponId: 'crossbow' },
  SpendDice: { type: 'SpendDice', combatantId: 'mira' },
  ApplyLingeringHarm: { type: 'ApplyLingeringHarm', combatantId: 'orin', form: 'Bleeding' },
  TreatLingeringHarm: { type: 'TreatLingeringHarm', combatantId: 'orin', lingeringHarmId: 'lh1' },
  ApplyCondition: { type: 'ApplyCondition', combatantId: 'orin', condition: 'prone' },
  RemoveCondition: { type: 'RemoveCondition', combatantId: 'orin', condition: 'prone' },
  SetPosition: { type: 'SetPosition', combatantId: 'orin', position: { x: 1, y: 2 } },
  Move: { type: 'Move', combatantId: 'orin', path: [{ x: 1, y: 1 }] },
  TakeOpportunityAttack: { type: 'TakeOpportunityAttack', combatantId: 'orin', weaponId: 'mace' },
  DeclineOpportunity: { type: 'DeclineOpportunity', combatantId: 'orin' },
};

const TYPES = Object.keys(NARATEER_COMMAND_SCHEMAS) as NarateerCommandType[];

/** A value of each JSON type. */
const OF_JSON_TYPE: Record<string, unknown> = {
  string: 'x',
  integer: 7,
  number: 1.5,
  boolean: true,
  object: {},
  array: [],
  null: null,
};

/** The JSON types a field's published JSON Schema accepts (an integer field refuses 1.5, a number field takes 7). */
function acceptedTypes(schema: Record<string, unknown>): Set<string> {
  const out = new Set<string>();
  const visit = (s: Record<string, unknown>) => {
    const t = s.type;
    for (const one of Array.isArray(t) ? t : t === undefined ? [] : [t]) out.add(String(one));
    if ('const' in s) out.add(s.const === null ? 'null' : typeof s.const);
    if (Array.isArray(s.enum)) for (const v of s.enum) out.add(v === null ? 'null' : typeof v);
    for (const key of ['anyOf', 'oneOf', 'allOf'] as const)
      if (Array.isArray(s[key])) for (const sub of s[key] as Record<string, unknown>[]) visit(sub);
  };
  visit(schema);
  if (out.has('number')) out.add('integer');
  return out;
}

function contractRefusal(cmd: Record<string, unknown>): ContractViolation {
  let v: RuleViolation;
  try {
    v = refusal(() => checkCommand(NARATEER_CONTRACT.commands, cmd as RuleCommand));
  } catch (e) {
    throw new Error(`${(e as Error).message}: ${JSON.stringify(cmd)}`, { cause: e });
  }
  expect(v).toBeInstanceOf(ContractViolation);
  return v as ContractViolation;
}

describe('Narateer contract: every command declared once, strictly', () => {
  it('declares a schema for every command type, and no schema without a command', () => {
    expect(Object.keys(NARATEER_COMMAND_SCHEMAS).sort()).toEqual(Object.keys(NARATEER_COMMANDS).sort());
    for (const type of TYPES) {
      expect(narateer.contract.commands[type]).toBe(NARATEER_COMMAND_SCHEMAS[type]);
      expect(narateer.commands[type]).toBe(NARATEER_COMMAND_SCHEMAS[type].description);
    }
  });

  it.each(TYPES)('%s: the example parses', (type) => {
    expect(checkCommand(NARATEER_CONTRACT.commands, EXAMPLES[type] as RuleCommand)).toMatchObject({ type });
  });

  it.each(TYPES)('%s: a typo of each field is refused as UNKNOWN_FIELD naming it', (type) => {
    const fields = Object.keys(NARATEER_COMMAND_SCHEMAS[type].shape).filter((f) => f !== 'type');
    expect(fields.length).toBeGreaterThan(3);
    for (const f of fields) {
      // A letter dropped (boost → boot), or doubled for one-letter names: never another field's name.
      const typo = f.length > 2 ? f.slice(0, -1) : `${f}${f}`;
      expect(fields).not.toContain(typo);
      const e = contractRefusal({ ...EXAMPLES[type], [typo]: 1 });
      expect([e.code, e.field]).toEqual(['UNKNOWN_FIELD', typo]);
      expect(e.issues).toHaveLength(1);
    }
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      const withName = JSON.parse(JSON.stringify(EXAMPLES[type]).replace(/^\{/, `{"${name}":1,`));
      expect(contractRefusal(withName)).toMatchObject({ code: 'UNKNOWN_FIELD', field: name });
    }
  });

  it.each(TYPES)('%s: a wrong JSON type in each field is refused as INVALID_FIELD naming it', (type) => {
    const schema = jsonSchemaOf(NARATEER_COMMAND_SCHEMAS[type]) as {
      properties: Record<string, Record<string, unknown>>;
    };
    let cases = 0;
    for (const [field, property] of Object.entries(schema.properties)) {
      if (field === 'type') continue; // a command type no schema declares is decide's: UNKNOWN_COMMAND
      const accepted = acceptedTypes(property);
      expect(accepted.size).toBeGreaterThan(0);
      for (const [jsonType, value] of Object.entries(OF_JSON_TYPE)) {
        if (accepted.has(jsonType)) continue;
        const e = contractRefusal({ ...EXAMPLES[type], [field]: value });
        expect({ value, code: e.code, field: e.field }).toEqual({ value, code: 'INVALID_FIELD', field });
        cases++;
      }
    }
    expect(cases).toBeGreaterThan(20);
  });

  it.each(TYPES)('%s: decide refuses the same as the edge, naming the field, before any rule', (type) => {
    const v = given(narateer, [])
      .when({ ...EXAMPLES[type], combatantId: 7, attackerId: 7 })
      .violation();
    expect(v).toMatchObject({ code: 'FIGHT_NOT_STARTED' });
    const started = given(narateer, [fightStarted('narateer')])
      .when({ ...(EXAMPLES[type] as RuleCommand), bogus: true })
      .violation();
    expect(started).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'bogus' });
  });
});

describe('Narateer contract: what used to slip through', () => {
  const duel = () =>
    fight(
      [
        { id: 'mira', sheet: mira },
        { id: 'orin', sheet: orin },
      ],
      'mira',
    );

  it('a typo’d Boost is refused instead of playing Boost 0', () => {
    expect(
      given(narateer, duel())
        .when({ ...melee('mira', 'orin', 0), boost: undefined, boots: 2 })
        .violation(),
    ).toMatchObject({ code: 'UNKNOWN_FIELD', field: 'boots' });
  });

  it('manual dice as a string are refused naming the field instead of failing inside the dice', () => {
    expect(
      given(narateer, duel())
        .when({ ...melee('mira', 'orin', 0), dice: '6,4' })
        .violation(),
    ).toMatchObject({ code: 'INVALID_FIELD', field: 'dice' });
  });

  it.each(['toString', 'constructor', '__proto__', 'hasOwnProperty', 'valueOf'])(
    'a name every JavaScript object has is no table entry: %s',
    (name) => {
      // Conditions and proactive uses are looked up by name; a Lingering Harm Form is looked up for its default harm.
      expect(
        given(narateer, duel())
          .when({ type: 'ApplyCondition', combatantId: 'orin', condition: name })
          .violation(),
      ).toMatchObject({ code: 'INVALID_FIELD', field: 'condition' });
      expect(
        given(narateer, duel())
          .when({ type: 'SpendDice', combatantId: 'mira', proactiveUse: name })
          .violation(),
      ).toMatchObject({ code: 'INVALID_FIELD', field: 'proactiveUse' });
      expect(
        given(narateer, duel())
          .when({ type: 'ApplyLingeringHarm', combatantId: 'orin', form: name })
          .violation(),
      ).toMatchObject({ code: 'NARATEER_HARM_REQUIRED', field: 'harm' });
      expect(
        given(narateer, duel())
          .when(melee('mira', 'orin', 0, { weaponId: name }))
          .violation(),
      ).toMatchObject({ code: 'NARATEER_UNKNOWN_WEAPON', field: 'weaponId' });
    },
  );
});
