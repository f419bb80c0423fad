import { eventSchemasOf, FightCore, jsonSchemaOf, RuleSystem, withEnvelope } from '@app/rules';
import { SystemModel } from './models';

const described = new Map<string, SystemModel>();

/** A system as GET /systems/:id and the `system` query give it: the JSON Schema of every command, event and the sheet. */
export function describeSystem(s: RuleSystem<FightCore>): SystemModel {
  const known = described.get(s.id);
  if (known) return known;
  const commands = s.contract.commands;
  const model: SystemModel = {
    id: s.id,
    name: s.name,
    data: s.data,
    rulings: s.rulings,
    commands: [...new Set([...Object.keys(s.commands), ...Object.keys(commands)])].map((type) => ({
      type,
      description: s.commands[type] ?? commands[type]?.description ?? '',
      // The body a client sends: the command with its envelope (commandId, expectedSeq), as OpenAPI has it.
      schema: Object.hasOwn(commands, type)
        ? jsonSchemaOf(withEnvelope(commands[type]))
        : { type: 'object', properties: { type: { const: type } }, required: ['type'] },
    })),
    events: Object.entries(eventSchemasOf(s.contract)).map(([type, schema]) => ({
      type,
      schema: jsonSchemaOf(schema),
    })),
    sheetSchema: jsonSchemaOf(s.contract.sheet),
    optionsSchema: jsonSchemaOf(s.contract.options),
  };
  described.set(s.id, model);
  return model;
}
