import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Parser } from '@asyncapi/parser';
import { buildSchema, GraphQLEnumType, GraphQLObjectType, validateSchema } from 'graphql';
import { checkCommand, eventSchemasOf, findSystem, SYSTEMS } from '@app/rules';
import { COMMAND_EXAMPLES } from '../apps/api/src/common/command-examples';
import { asyncApiDocument } from '../apps/api/src/common/asyncapi';

const ROOT = join(__dirname, '..');

/** The generated documents of the contract, read by the tools a frontend developer uses. */
describe('the published contract documents', () => {
  it('schema/asyncapi.json is what the generator writes, and @asyncapi/parser finds no error in it', async () => {
    const text = readFileSync(join(ROOT, 'schema/asyncapi.json'), 'utf8');
    expect(JSON.parse(text)).toEqual(asyncApiDocument());
    const { document, diagnostics } = await new Parser().parse(text);
    // Severity 0 is Error: the diagnostics carry spectral-core's own copy of the DiagnosticSeverity enum, which the parser does not export.
    // eslint-disable-next-line @typescript-eslint/no-unsafe-enum-comparison -- see above
    const errors = diagnostics.filter((d) => d.severity === 0);
    expect(errors.map((d) => `${d.path.join('.')}: ${d.message}`)).toEqual([]);
    expect(document).toBeDefined();
  });

  it('AsyncAPI lists every event type of every system with its payload schema', () => {
    const doc = asyncApiDocument() as {
      components: { schemas: Record<string, { properties?: { type?: { const?: string } } }> };
    };
    for (const system of Object.values(SYSTEMS)) {
      for (const type of Object.keys(eventSchemasOf(system.contract))) {
        const found = Object.values(doc.components.schemas).some((s) => s.properties?.type?.const === type);
        expect([system.id, type, found]).toEqual([system.id, type, true]);
      }
    }
  });

  it('every published command example is accepted by the contract and was played in its recorded fight', () => {
    const examples = Object.entries(COMMAND_EXAMPLES).flatMap(([system, byType]) =>
      Object.entries(byType).map(([type, e]) => ({ system, type, ...e })),
    );
    expect(examples.length).toBeGreaterThan(25);
    for (const { system, type, fixture, command } of examples) {
      expect(command.type).toBe(type);
      expect(() => checkCommand(findSystem(system)!.contract.commands, command as never)).not.toThrow();
      const log = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/logs', `${fixture}.json`), 'utf8')) as {
        system: string;
        entries: Array<{ command?: unknown }>;
      };
      expect(log.system).toBe(system);
      const played = log.entries.map((e) => e.command).filter(Boolean);
      expect(played).toContainEqual(command);
    }
  });

  it('every GET that takes a key or token lists ?token= (EventSource, OBS and links cannot send a header)', () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'schema/openapi.json'), 'utf8')) as {
      security?: unknown[];
      paths: Record<
        string,
        { get?: { security?: unknown[]; parameters?: Array<{ in: string; name: string }> } }
      >;
    };
    const without = Object.entries(doc.paths)
      .filter(([, ops]) => ops.get && (ops.get.security ?? doc.security ?? []).length > 0)
      .filter(([, ops]) => !ops.get!.parameters?.some((q) => q.in === 'query' && q.name === 'token'))
      .map(([path]) => path);
    expect(without).toEqual([]);
  });

  it('schema/openapi.json passes Redocly’s recommended rules with no error', () => {
    let out: string;
    try {
      out = execFileSync(
        process.execPath,
        [join(ROOT, 'node_modules/@redocly/cli/bin/cli.js'), 'lint', 'schema/openapi.json', '--format=json'],
        { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
      );
    } catch (e) {
      out = (e as { stdout?: string }).stdout ?? '';
    }
    const report = JSON.parse(out.slice(out.indexOf('{'))) as {
      totals: { errors: number };
      problems: Array<{
        ruleId: string;
        severity: string;
        message: string;
        location: Array<{ pointer: string }>;
      }>;
    };
    // Warnings too: each is a defect a client's generator or a reader meets (a required property the
    // schema never defines, an operation with no success answer, a component nothing uses). The one
    // left: the service is not published under a license, so its license object has no url.
    expect(report.problems.map((p) => `${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`)).toEqual([
      'info-license-strict #/info/license/url: License object should contain `url` field.',
    ]);
    expect(report.totals.errors).toBe(0);
  });

  it('every OpenAPI operation has a summary, a description, a success answer and declared tags', () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'schema/openapi.json'), 'utf8')) as {
      tags?: Array<{ name: string; description?: string }>;
      paths: Record<
        string,
        Record<string, { summary?: string; description?: string; tags?: string[]; responses: object }>
      >;
    };
    const declared = new Map((doc.tags ?? []).map((t) => [t.name, t.description]));
    const faults: string[] = [];
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        if (!['get', 'put', 'post', 'delete', 'patch'].includes(method)) continue;
        const at = `${method} ${path}`;
        if (!op.summary || op.summary.length > 80) faults.push(`${at}: summary`);
        if (!op.description) faults.push(`${at}: description`);
        if (!Object.keys(op.responses).some((status) => /^[23]/.test(status)))
          faults.push(`${at}: no 2xx/3xx`);
        for (const tag of op.tags ?? []) if (!declared.get(tag)) faults.push(`${at}: tag ${tag} undeclared`);
        if (!op.tags?.length) faults.push(`${at}: no tag`);
      }
    expect(faults).toEqual([]);
  });

  it('every OpenAPI answer says what it means, and a route that takes a body never says it takes none', () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'schema/openapi.json'), 'utf8')) as {
      paths: Record<
        string,
        Record<string, { requestBody?: object; responses: Record<string, { description?: string }> }>
      >;
    };
    const faults: string[] = [];
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item)) {
        for (const [status, answer] of Object.entries(op.responses))
          if (!answer.description?.trim()) faults.push(`${method} ${path} ${status}: no description`);
        if (op.requestBody && op.responses['422']?.description?.includes('takes no body'))
          faults.push(`${method} ${path} 422: says the route takes no body`);
      }
    expect(faults).toEqual([]);
  });

  it('every nullable enum of schema/openapi.json lists null among its values (OpenAPI 3.0.3: an enum without null refuses null, nullable or not)', () => {
    const doc = JSON.parse(readFileSync(join(ROOT, 'schema/openapi.json'), 'utf8')) as unknown;
    const faults: string[] = [];
    const walk = (node: unknown, at: string): void => {
      if (Array.isArray(node)) return node.forEach((n, i) => walk(n, `${at}/${i}`));
      if (!node || typeof node !== 'object') return;
      const schema = node as { nullable?: unknown; enum?: unknown };
      if (schema.nullable === true && Array.isArray(schema.enum) && !schema.enum.includes(null))
        faults.push(at);
      for (const [key, value] of Object.entries(node)) walk(value, `${at}/${key}`);
    };
    walk(doc, '#');
    expect(faults).toEqual([]);
  });

  it('schema/schema.graphql is a valid GraphQL schema: every object type has a field (a union of objects is typed as one)', () => {
    const schema = buildSchema(readFileSync(join(ROOT, 'schema/schema.graphql'), 'utf8'));
    expect(validateSchema(schema).map((e) => e.message)).toEqual([]);
    // Arcana Beast's TriggerSet is a discriminated union: every member's fields, `kind` an enum of both.
    const trigger = schema.getType('ArcanaBeastTriggerSetData') as GraphQLObjectType;
    expect(
      Object.fromEntries(Object.values(trigger.getFields()).map((f) => [f.name, String(f.type)])),
    ).toEqual({
      active: 'Boolean!',
      combatantId: 'String!',
      kind: 'ArcanaBeastTriggerSetDataKind!',
      stage: 'Int',
    });
    expect(
      (schema.getType('ArcanaBeastTriggerSetDataKind') as GraphQLEnumType).getValues().map((v) => v.name),
    ).toEqual(['stage', 'zeroPower']);
  });
});
