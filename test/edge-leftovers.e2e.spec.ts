import { request as httpRequest } from 'node:http';
import { removeDir, startApp, TestApp } from './support/app';
import { onEveryEngine } from './support/engines';
import { onSocket } from './support/raw-socket';

/** The status line and the JSON body of one answer on a socket. */
function answerOf(text: string): { status: string; head: string; body: any } {
  const [head, ...rest] = text.split('\r\n\r\n');
  const body = rest.join('\r\n\r\n');
  return { status: head.split('\r\n')[0], head, body: body ? JSON.parse(body) : undefined };
}

/** A request through Node's own client (what fetch-less Node clients send): the status and the JSON body. */
function nodeGet(url: string, path: string, key: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${url}${path}`, { headers: { authorization: `Bearer ${key}` } }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString('utf8')));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: JSON.parse(text) }));
    });
    req.on('error', reject);
    req.end();
  });
}

const decode = (cursor: string) => JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
const encode = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

/**
 * What a black-box run found at the HTTP edge: a GET body, a bare key, a request line too long, a
 * forged list total. Each is a 4xx in the error shape naming what is at fault, on every engine.
 */
function leftoversSuite(
  engine: string,
  opts: Parameters<typeof startApp>[0],
  cleanup: () => Promise<void> = async () => undefined,
) {
  describe(`edge leftovers (${engine})`, () => {
    let t: TestApp;
    const fightIds: string[] = [];
    /** Waits until the fight list shows `n` fights (the read model catches up after the write). */
    const listed = async (n: number) => {
      // As long as a loaded machine takes, not a count of tries: 60 s is only a bound on a hang.
      for (const deadline = Date.now() + 60_000; Date.now() < deadline;) {
        if ((await t.http.get('/fights?limit=100').expect(200)).body.items.length === n) return;
        await new Promise((r) => setTimeout(r, 25));
      }
      throw new Error('the fight list never caught up');
    };

    beforeAll(async () => {
      t = await startApp({ ...opts, listen: true });
      for (let i = 0; i < 3; i++)
        fightIds.push(
          (
            await t.http
              .post('/fights')
              .send({ system: 'narateer', name: `F${i}` })
              .expect(201)
          ).body.fightId,
        );
      await listed(3);
    });
    afterAll(async () => {
      if (!t) return;
      await t.close();
      removeDir(t.dataDir);
      await cleanup();
    });

    describe("a minSeq past the fight's last seq", () => {
      it('given a fight at seq N, when its view is asked with minSeq N + 1, then it is 422 SEQ_OUT_OF_RANGE naming minSeq at once, on REST and GraphQL; minSeq N answers', async () => {
        const id = fightIds[0];
        // The fight's last seq from its log: a plain GET reads the projection, which may lag behind it.
        const events = (await t.http.get(`/fights/${id}/events`).expect(200)).body as Array<{ seq: number }>;
        const seq = events[events.length - 1].seq;
        const expected = {
          statusCode: 422,
          code: 'SEQ_OUT_OF_RANGE',
          message: `minSeq must be at most ${seq}, the fight's last seq`,
          field: 'minSeq',
        };
        const res = await t.http.get(`/fights/${id}?minSeq=${seq + 1}`);
        expect([res.status, res.body]).toEqual([422, expected]);
        const gql = await t.gql(`{ fight(fightId: "${id}", minSeq: ${seq + 1}) { seq } }`);
        expect(gql.errors?.[0].extensions).toMatchObject(expected);
        expect((await t.http.get(`/fights/${id}?minSeq=${seq}`).expect(200)).body.seq).toBe(seq);
      });
    });

    describe('a body on a GET or HEAD', () => {
      it('given a GET with a JSON body, when it is sent, then it is 400 BODY_NOT_ALLOWED naming body', async () => {
        const res = await t.http
          .get(`/fights/${fightIds[0]}`)
          .set('content-type', 'application/json')
          .send({ at: 1 });
        expect(res.status).toBe(400);
        expect(res.body).toEqual({
          statusCode: 400,
          code: 'BODY_NOT_ALLOWED',
          message: 'a GET request takes no body: send the input in the query string, or none',
          field: 'body',
        });
      });

      it('given a HEAD or GET with a body of another media type, then it is 400 too, before any ETag or 304', async () => {
        // Raw: Node's client frames no body on a HEAD (no Content-Length), so its "hello" would be a
        // second request that is not HTTP, refused after the HEAD's own answer.
        const head = await onSocket(
          t.url!,
          `HEAD /fights HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.apiKey}\r\n` +
            'Content-Type: text/plain\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello',
        );
        expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
        const tagged = await t.http.get('/systems').expect(200);
        const again = await t.http
          .get('/systems')
          .set('if-none-match', tagged.headers.etag)
          .set('content-type', 'text/plain')
          .send('x');
        expect(again.status).toBe(400);
        expect(again.body).toMatchObject({ code: 'BODY_NOT_ALLOWED', field: 'body' });
      });

      it('given a chunked GET, then chunks of data are 400 and a chunked body of no chunks is none', async () => {
        const get = (chunks: string) =>
          `GET /fights HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.apiKey}\r\n` +
          `Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n${chunks}`;
        const refused = answerOf(await onSocket(t.url!, get('2\r\n{}\r\n0\r\n\r\n')));
        expect(refused.status).toBe('HTTP/1.1 400 Bad Request');
        expect(refused.body).toMatchObject({ statusCode: 400, code: 'BODY_NOT_ALLOWED', field: 'body' });
        const empty = answerOf(await onSocket(t.url!, get('0\r\n\r\n')));
        expect(empty.status).toBe('HTTP/1.1 200 OK');
        expect(empty.body.items).toHaveLength(3);
      });

      it('given a GET with Content-Length: 0, or from Node, fetch and superagent as they send it, then it is answered', async () => {
        const zero = answerOf(
          await onSocket(
            t.url!,
            `GET /fights/${fightIds[0]} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.apiKey}\r\n` +
              'Content-Length: 0\r\nConnection: close\r\n\r\n',
          ),
        );
        expect(zero.status).toBe('HTTP/1.1 200 OK');
        expect(zero.body.fightId).toBe(fightIds[0]);
        expect((await nodeGet(t.url!, '/fights?limit=1', t.apiKey)).status).toBe(200);
        const fetched = await fetch(`${t.url}/fights?limit=1`, {
          headers: { authorization: `Bearer ${t.apiKey}` },
        });
        expect(fetched.status).toBe(200);
        await t.http.get('/fights?limit=1').expect(200);
      });

      it('given a GraphQL GET with a body, then it is refused as GraphQL clients read errors', async () => {
        const res = await t.http
          .get('/graphql?query=%7B__typename%7D')
          .set('content-type', 'application/json')
          .send({ query: '{ systems { id } }' });
        expect(res.status).toBe(400);
        expect(res.body.errors[0].extensions).toMatchObject({
          statusCode: 400,
          code: 'BODY_NOT_ALLOWED',
          field: 'body',
        });
      });

      it('given a body on a path no route has, then it stays 404', async () => {
        const res = await t.http.get('/no-such-thing').set('content-type', 'application/json').send({});
        expect(res.status).toBe(404);
      });
    });

    describe('the Authorization scheme', () => {
      it.each([
        ['a bare key', (key: string) => key],
        ['another scheme', (key: string) => `Basic ${key}`],
        ['a key before the scheme', (key: string) => `${key} Bearer`],
      ])(
        'given %s, when a route is called, then it is 401 UNAUTHENTICATED naming authorization, with WWW-Authenticate: Bearer',
        async (_name, header) => {
          const res = await t.anon.get('/fights').set('authorization', header(t.apiKey));
          expect(res.status).toBe(401);
          expect(res.headers['www-authenticate']).toBe('Bearer');
          expect(res.body).toEqual({
            statusCode: 401,
            code: 'UNAUTHENTICATED',
            message:
              'the Authorization header must be "Bearer <key or token>": its scheme is missing or not Bearer',
            field: 'authorization',
          });
        },
      );

      it('given a bare key on GraphQL, then the operation is refused with the same code', async () => {
        const res = await t.anon
          .post('/graphql')
          .set('authorization', t.apiKey)
          .send({ query: '{ fights { items { fightId } } }' });
        expect(res.body.data ?? null).toBeNull();
        expect(res.body.errors[0].extensions).toMatchObject({
          statusCode: 401,
          code: 'UNAUTHENTICATED',
          field: 'authorization',
        });
      });

      it('given the Bearer scheme in any case, then the key works', async () => {
        await t.anon.get('/fights').set('authorization', `bearer ${t.apiKey}`).expect(200);
        await t.anon.get('/fights').set('authorization', `Bearer ${t.apiKey}`).expect(200);
      });
    });

    describe('a request line or headers past the size limit', () => {
      it('given a request target longer than the server takes, then it is 414 URI_TOO_LONG naming path, and the connection is closed', async () => {
        const got = answerOf(
          await onSocket(t.url!, `GET /fights?system=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n\r\n`),
        );
        expect(got.status).toBe('HTTP/1.1 414 URI Too Long');
        expect(got.head).toContain('Connection: close');
        expect(got.body).toEqual({
          statusCode: 414,
          code: 'URI_TOO_LONG',
          message: 'the request target is longer than the server takes',
          field: 'path',
        });
      });

      it('given a short request line and headers past the limit, then it stays 431 HEADERS_TOO_LARGE naming headers', async () => {
        const got = answerOf(
          await onSocket(t.url!, `GET /fights HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(20_000)}\r\n\r\n`),
        );
        expect(got.status).toBe('HTTP/1.1 431 Request Header Fields Too Large');
        expect(got.body).toMatchObject({ statusCode: 431, code: 'HEADERS_TOO_LARGE', field: 'headers' });
      });
    });

    describe('a query parameter with an empty name', () => {
      it('given ?=1 on a route with a query and on one without, then 400 VALIDATION_FAILED naming it as sent, ""', async () => {
        for (const path of [`/fights/${fightIds[0]}/events?=1`, '/systems?=1']) {
          const res = await t.http.get(path).expect(400);
          expect(res.body).toMatchObject({
            code: 'VALIDATION_FAILED',
            field: '',
            message: 'a query parameter with an empty name (?=…) is not a query parameter of this route',
            issues: [{ field: '', code: 'UNKNOWN_FIELD' }],
          });
        }
      });
    });

    describe('the fight list total a cursor carries', () => {
      const firstPage = async () => {
        const res = await t.http.get('/fights?limit=1&total=true').expect(200);
        expect(res.body.total).toBe(3);
        return res.body.nextCursor as string;
      };
      const refusedCursor = {
        statusCode: 400,
        code: 'INVALID_CURSOR',
        message:
          'cursor is not one this list gave out: send back X-Next-Cursor / nextCursor (or follow Link rel="next") as it came',
        field: 'cursor',
      };

      it('given the cursor as it came, then the next page repeats the count', async () => {
        const res = await t.http.get(`/fights?limit=1&total=true&cursor=${await firstPage()}`).expect(200);
        expect(res.body.total).toBe(3);
      });

      it('given a cursor whose total was edited, when it is sent back, then it is 400 INVALID_CURSOR naming cursor, never the forged number', async () => {
        const forged = encode({ ...decode(await firstPage()), total: 1_000_000 });
        const res = await t.http.get(`/fights?limit=1&total=true&cursor=${forged}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(refusedCursor);
        const gql = await t.gql('query($c: String) { fights(limit: 1, cursor: $c) { total } }', {
          c: forged,
        });
        expect(gql.errors?.[0].extensions).toMatchObject({ code: 'INVALID_CURSOR', field: 'cursor' });
      });

      it('given a cursor whose total comes without its seal, then it is 400 INVALID_CURSOR', async () => {
        const cursor = decode(await firstPage());
        const forged = encode({ ...cursor, total: 7, shape: String(cursor.shape).slice(0, 8) });
        const res = await t.http.get(`/fights?limit=1&total=true&cursor=${forged}`);
        expect(res.status).toBe(400);
        expect(res.body).toEqual(refusedCursor);
      });

      it('given a cursor sealed by another instance (or before a restart), then its total is not trusted but counted afresh', async () => {
        const cursor = decode(await firstPage());
        const shape = String(cursor.shape);
        const elsewhere = `${shape.slice(0, 8)}${shape[8] === 'A' ? 'B' : 'A'}${shape.slice(9)}`;
        const res = await t.http
          .get(
            `/fights?limit=1&total=true&cursor=${encode({ ...cursor, total: 1_000_000, shape: elsewhere })}`,
          )
          .expect(200);
        expect(res.body.total).toBe(3);
      });
    });

    describe('a fight log with several format errors', () => {
      const exported = async () =>
        (await t.http.get(`/fights/${fightIds[0]}/log`).expect(200)).body as {
          events: unknown;
          entries: Array<Record<string, unknown>>;
        };

      it('given a JSON log with a bad header field and bad entries, then the first is the error and issues lists every one, in order', async () => {
        const doc = await exported();
        doc.events = 'many';
        doc.entries[0].seq = 0;
        doc.entries[0].extra = true;
        const res = await t.http.post('/audit/verify').send(doc);
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({
          statusCode: 422,
          code: 'LOG_FORMAT_INVALID',
          field: 'events',
          message: 'header: events must be a whole number',
        });
        expect(res.body.issues).toEqual([
          { field: 'events', code: 'LOG_FORMAT_INVALID', message: 'header: events must be a whole number' },
          {
            field: 'entries[0].extra',
            code: 'LOG_FORMAT_INVALID',
            message: 'entries[0].extra is not a field of a fight log entry',
          },
        ]);
        const gql = await t.gql('mutation($log: JSONObject!) { verifyFightLog(log: $log) }', { log: doc });
        expect(gql.errors?.[0]?.extensions).toMatchObject({
          code: 'LOG_FORMAT_INVALID',
          field: 'events',
          issues: res.body.issues,
        });
      });

      it('given an NDJSON log whose every entry is broken, then issues names each by its line, the first hundred only', async () => {
        const { entries, ...header } = await exported();
        const broken = Array.from({ length: 150 }, (_, i) => ({ ...entries[0], seq: 0, at: i }));
        const text = [header, ...broken].map((x) => JSON.stringify(x)).join('\n') + '\n';
        const res = await t.http.post('/audit/verify').set('content-type', 'application/x-ndjson').send(text);
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({ code: 'LOG_FORMAT_INVALID', field: 'entries[0].at' });
        expect(res.body.issues).toHaveLength(100);
        expect(res.body.issues[0]).toEqual({
          field: 'entries[0].at',
          code: 'LOG_FORMAT_INVALID',
          message: 'line 2: entries[0].at must be a string',
        });
        expect(res.body.issues[99].message).toBe('line 101: entries[99].at must be a string');
      });

      it('given a log with one format error, then issues holds that one', async () => {
        const doc = await exported();
        doc.entries[0].hash = 7;
        const res = await t.http.post('/audit/verify').send(doc);
        expect(res.status).toBe(422);
        expect(res.body).toMatchObject({ field: 'entries[0].hash' });
        expect(res.body.issues).toEqual([
          {
            field: 'entries[0].hash',
            code: 'LOG_FORMAT_INVALID',
            message: 'entries[0].hash must be a string',
          },
        ]);
      });
    });
  });
}

onEveryEngine(leftoversSuite, {
  prefix: 'leftovers',
  what: 'The edge leftovers',
  title: 'edge leftovers',
});
