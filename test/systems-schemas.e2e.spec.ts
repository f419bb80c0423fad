import Ajv2020 from 'ajv/dist/2020';
import { COMMAND_EXAMPLES } from '../apps/api/src/common/command-examples';
import { useApp } from './support/app';

interface SystemDoc {
  commands: Array<{ type: string; schema: Record<string, unknown> }>;
}

/**
 * GET /systems/:id gives the JSON Schema of each command's body: what a client sends to POST /fights/:id/commands,
 * its envelope (commandId, expectedSeq) included. A client validating its own body before sending it must not be
 * refused its idempotency key by a schema that shuts out every field it does not list.
 */
describe('GET /systems/:id: command schemas are the bodies clients send', () => {
  const t = useApp();

  it.each(Object.keys(COMMAND_EXAMPLES))(
    'given %s, every recorded example command with a commandId and an expectedSeq validates against its published schema; a field of no command does not',
    async (system) => {
      const doc = (await t.http.get(`/systems/${system}`).expect(200)).body as SystemDoc;
      const ajv = new Ajv2020({ strict: false });
      const faults: string[] = [];
      for (const [type, example] of Object.entries(COMMAND_EXAMPLES[system])) {
        const published = doc.commands.find((c) => c.type === type);
        if (!published) {
          faults.push(`${type}: not published`);
          continue;
        }
        const validate = ajv.compile(published.schema);
        const body = { ...example.command, commandId: `example-${type}`, expectedSeq: 3 };
        if (!validate(body)) faults.push(`${type}: ${ajv.errorsText(validate.errors)}`);
        if (validate({ ...body, notAField: 1 })) faults.push(`${type}: an unknown field validates`);
      }
      expect(faults).toEqual([]);
    },
  );
});
