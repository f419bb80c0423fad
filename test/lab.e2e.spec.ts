import 'reflect-metadata';
import { CanActivate, ExecutionContext, INestApplication, Injectable } from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { GraphQLModule, GqlExecutionContext } from '@nestjs/graphql';
import { ApolloDriver, ApolloDriverConfig } from '@nestjs/apollo';
import request from 'supertest';
import { AppError } from '@app/fights';
import { AllExceptionsFilter } from '../apps/api/src/common/all-exceptions.filter';
import { validationPipe } from '../apps/api/src/common/validation';
import { LabModule } from '../apps/api/src/lab/lab.module';

/** Stands in for the app's AuthGuard: `Bearer tenant-a`, `Bearer tenant-b`, `Bearer player`. */
@Injectable()
class FakeAuth implements CanActivate {
  canActivate(ctx: ExecutionContext): boolean {
    const req =
      ctx.getType<string>() === 'graphql'
        ? GqlExecutionContext.create(ctx).getContext().req
        : ctx.switchToHttp().getRequest();
    const who = String(req.headers.authorization ?? '').replace('Bearer ', '');
    if (!who) throw new AppError(401, 'UNAUTHENTICATED', 'send a key');
    req.principal =
      who === 'player'
        ? { kind: 'player', fightId: 'f', tokenId: 't', combatantIds: [] }
        : { kind: 'tenant', tenantId: who, keyId: `k-${who}` };
    return true;
  }
}

describe('Combat Lab API', () => {
  let app: INestApplication;
  const as = (who: string) => ({ authorization: `Bearer ${who}` });

  beforeAll(async () => {
    const module = await Test.createTestingModule({
      imports: [
        LabModule,
        GraphQLModule.forRoot<ApolloDriverConfig>({
          driver: ApolloDriver,
          autoSchemaFile: true,
          // Apollo on Fastify calls it with the request itself.
          context: (req: unknown) => ({ req }),
        }),
      ],
      providers: [
        { provide: APP_PIPE, useValue: validationPipe },
        { provide: APP_FILTER, useClass: AllExceptionsFilter },
        { provide: APP_GUARD, useClass: FakeAuth },
      ],
    }).compile();
    app = module.createNestApplication<NestFastifyApplication>(new FastifyAdapter(), { logger: false });
    await app.init();
    await (app as NestFastifyApplication).getHttpAdapter().getInstance().ready();
  });
  afterAll(() => app.close());

  async function finished(id: string, who = 'tenant-a') {
    for (;;) {
      const res = await request(app.getHttpServer()).get(`/lab/runs/${id}`).set(as(who)).expect(200);
      if (res.body.status !== 'running') return res.body;
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  it('POST /lab/runs starts a run; GET reads its progress and result', async () => {
    const started = await request(app.getHttpServer())
      .post('/lab/runs')
      .set(as('tenant-a'))
      .send({ system: 'narateer', fights: 300, seed: '42', strategies: ['heavy', 'guard'] })
      .expect(202);
    expect(started.body).toMatchObject({
      status: 'running',
      progress: { total: 1200 },
      strategies: ['heavy', 'guard'],
    });
    const run = await finished(started.body.id);
    expect(run).toMatchObject({ status: 'done', progress: { done: 1200, total: 1200 }, error: null });
    expect(run.result.cells).toHaveLength(2);
    expect(run.result.cells[1][0]).toMatchObject({ row: 'guard', col: 'heavy', fights: 300 });
  });

  it('the same input gives the same result', async () => {
    const body = { system: 'narateer', fights: 20, seed: 'same', strategies: ['flurry', 'clash'] };
    const ids = await Promise.all(
      [1, 2].map(
        async () =>
          (await request(app.getHttpServer()).post('/lab/runs').set(as('tenant-a')).send(body).expect(202))
            .body.id,
      ),
    );
    const [a, b] = await Promise.all(ids.map((id) => finished(id)));
    expect(JSON.stringify(a.result)).toBe(JSON.stringify(b.result));
  });

  it.each([
    [{ fights: 100_001 }, 'fights', /at most 100000/],
    [{ fights: 1.5 }, 'fights', /integer/],
    [{ system: 'chess' }, 'system', /system/],
    [{ extra: true }, 'extra', /extra is not a field/],
    [{ strategies: ['berserk'] }, 'strategies[0]', /berserk/],
  ])(
    '%j is a 422 naming %s: a readable body whose field the lab cannot run with',
    async (change, field, message) => {
      const res = await request(app.getHttpServer())
        .post('/lab/runs')
        .set(as('tenant-a'))
        .send({ system: 'narateer', fights: 10, seed: '1', ...change })
        .expect(422);
      expect(res.body.field).toBe(field);
      expect(res.body.message).toMatch(message);
    },
  );

  it('a sheet that breaks the rules is a 422 naming the sheet field', async () => {
    const res = await request(app.getHttpServer())
      .post('/lab/runs')
      .set(as('tenant-a'))
      .send({ system: 'narateer', fights: 10, seed: '1', sheets: [{ maxAD: 1 }, {}] })
      .expect(422);
    expect(res.body.field).toMatch(/^sheets\[0\]/);
  });

  it.each(['narateer', 'arcana-beast'])(
    'given %s sheets the rules refuse in several fields, then every issue names the field as sent, message and all',
    async (system) => {
      const sheets =
        system === 'narateer' ? [{}, {}] : [{ beast: { kind: 'beast' } }, { beast: { kind: 'beast' } }];
      const res = await request(app.getHttpServer())
        .post('/lab/runs')
        .set(as('tenant-a'))
        .send({ system, fights: 1, seed: '1', sheets })
        .expect(422);
      expect(res.body.issues.length).toBeGreaterThan(1);
      expect(res.body.field).toBe(res.body.issues[0].field);
      for (const issue of res.body.issues as Array<{ field: string; message: string }>) {
        expect(issue.field).toMatch(/^sheets\[[01]\]/);
        expect(issue.message).toContain(issue.field);
      }
      expect(JSON.stringify(res.body)).not.toContain('combatants[');
    },
  );

  it('needs a key, refuses fight tokens, and hides other tenants’ runs', async () => {
    await request(app.getHttpServer())
      .post('/lab/runs')
      .send({ system: 'narateer', fights: 10, seed: '1' })
      .expect(401);
    await request(app.getHttpServer())
      .post('/lab/runs')
      .set(as('player'))
      .send({ system: 'narateer', fights: 10, seed: '1' })
      .expect(403);
    const { body } = await request(app.getHttpServer())
      .post('/lab/runs')
      .set(as('tenant-a'))
      .send({ system: 'narateer', fights: 10, seed: '1', strategies: ['heavy'] })
      .expect(202);
    await request(app.getHttpServer()).get(`/lab/runs/${body.id}`).set(as('tenant-b')).expect(404);
    await finished(body.id);
  });

  it('GraphQL: startLabRun and labRun', async () => {
    const gql = (query: string, variables: Record<string, unknown>) =>
      request(app.getHttpServer()).post('/graphql').set(as('tenant-a')).send({ query, variables });
    const started = await gql(
      'mutation($input: StartLabRunInput!) { startLabRun(input: $input) { id status progress { total } } }',
      { input: { system: 'narateer', fights: 30, seed: 'g', strategies: ['heavy', 'clash'] } },
    );
    expect(started.body.data.startLabRun).toMatchObject({ status: 'running', progress: { total: 120 } });
    await finished(started.body.data.startLabRun.id);
    const read = await gql(
      'query($id: ID!) { labRun(id: $id) { status result { strategies cells { row col rowWin { rate low high } averageRounds } } } }',
      { id: started.body.data.startLabRun.id },
    );
    expect(read.body.data.labRun.status).toBe('done');
    expect(read.body.data.labRun.result.cells[0][1]).toMatchObject({ row: 'heavy', col: 'clash' });
    const bad = await gql('mutation($input: StartLabRunInput!) { startLabRun(input: $input) { id } }', {
      input: { system: 'narateer', fights: 200000, seed: 'g' },
    });
    expect(bad.body.errors[0].extensions).toMatchObject({
      statusCode: 422,
      code: 'INVALID_FIELD',
      field: 'fights',
    });
  });

  it.each(['arcana-beast', 'archsoul'])(
    '%s runs as a background job over REST and GraphQL, the same result both ways',
    async (system) => {
      const body = {
        system,
        fights: 2,
        seed: 'job',
        strategies: system === 'archsoul' ? ['reckless', 'spearman'] : ['surge', 'saver'],
      };
      const started = await request(app.getHttpServer())
        .post('/lab/runs')
        .set(as('tenant-a'))
        .send(body)
        .expect(202);
      expect(started.body).toMatchObject({ status: 'running', system, progress: { total: 8 } });
      const gql = (query: string, variables: Record<string, unknown>) =>
        request(app.getHttpServer()).post('/graphql').set(as('tenant-a')).send({ query, variables });
      const viaGraphql = await gql(
        'mutation($input: StartLabRunInput!) { startLabRun(input: $input) { id status } }',
        { input: body },
      );
      expect(viaGraphql.body.data.startLabRun.status).toBe('running');
      const rest = await finished(started.body.id);
      await finished(viaGraphql.body.data.startLabRun.id);
      expect(rest).toMatchObject({ status: 'done', progress: { done: 8, total: 8 } });
      expect(rest.result).toMatchObject({ format: 'combat-lab/1', system, strategies: body.strategies });
      const read = await gql(
        'query($id: ID!) { labRun(id: $id) { status result { system cells { row col rowWin { rate low high } illegalProposals } } } }',
        { id: viaGraphql.body.data.startLabRun.id },
      );
      expect(
        read.body.data.labRun.result.cells
          .flat()
          .map((c: { row: string; col: string; rowWin: unknown }) => [c.row, c.col, c.rowWin]),
      ).toEqual(
        rest.result.cells
          .flat()
          .map((c: { row: string; col: string; rowWin: unknown }) => [c.row, c.col, c.rowWin]),
      );
    },
  );

  it.each([
    ['arcana-beast', [{ beast: 'Ember' }, {}], 422, 'LAB_SHEETS_INVALID', 'sheets[0].beast'],
    [
      'arcana-beast',
      [
        {
          beast: {
            kind: 'beast',
            stats: { brawn: 1, agility: 1, endurance: 1, spirit: 1, technique: 1 },
            hp: 0,
            stamina: 0,
          },
        },
        { beast: { kind: 'beast' } },
      ],
      422,
      'INVALID_FIELD',
      'sheets[0].beast.hp',
    ],
    [
      'archsoul',
      [{ maxHp: 10 }, { maxHp: 10, position: { x: 1, y: 0 } }],
      422,
      'LAB_SHEETS_INVALID',
      'sheets[0].position',
    ],
    [
      'archsoul',
      [
        { maxHp: 10, position: { x: 0, y: 0 } },
        { maxHp: 10, position: { x: 0, y: 0 } },
      ],
      422,
      'ARCHSOUL_SPACE_OCCUPIED',
      'sheets[1].position',
    ],
  ])('%s: sheets %j are refused with %i %s naming %s', async (system, sheets, status, code, field) => {
    const res = await request(app.getHttpServer())
      .post('/lab/runs')
      .set(as('tenant-a'))
      .send({ system, fights: 1, seed: '1', sheets })
      .expect(status);
    expect(res.body).toMatchObject({ code, field });
  });
});
