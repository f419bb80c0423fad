import { connect } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { useApp } from './support/app';
import { soloFight } from './support/fight-calls';

/**
 * Request bodies as they reach the service on the wire: compressed, in another UTF, empty, too
 * large or not JSON at all. Each is read or refused with the service's error shape, never a 500,
 * and nothing refused is appended.
 */
describe('request bodies on the wire', () => {
  const t = useApp({ config: { bodyLimit: '16kb' }, listen: true });
  let fightId: string;
  const events = async () =>
    (await t.http.get(`/fights/${fightId}/events`).expect(200)).body.length as number;
  const note = (text: string) => Buffer.from(JSON.stringify({ type: 'AddNote', text }));
  const command = (body: Buffer, headers: Record<string, string>) => {
    const req = t.http.post(`/fights/${fightId}/commands`);
    for (const [name, value] of Object.entries(headers)) void req.set(name, value);
    // The bytes as they are: superagent would serialise a Buffer sent as JSON.
    return req.serialize((b: unknown) => b as string).send(body);
  };

  beforeAll(async () => {
    fightId = await soloFight(t);
  });

  it.each([
    ['gzip', gzipSync],
    ['x-gzip', gzipSync],
    ['deflate', deflateSync],
    ['br', brotliCompressSync],
  ] as const)('a %s body is inflated and read as JSON', async (coding, compress) => {
    const before = await events();
    const res = await command(compress(note(`sent ${coding}`)), {
      'content-type': 'application/json',
      'content-encoding': coding,
    });
    expect(res.status).toBe(200);
    expect(res.body.events.map((e: { type: string }) => e.type)).toEqual(['GmNoteAdded']);
    expect(await events()).toBe(before + 1);
  });

  it('an encoding nobody inflates is 415 naming content-encoding; a body that does not inflate is a 400', async () => {
    const before = await events();
    const unknown = await command(note('zstd?'), {
      'content-type': 'application/json',
      'content-encoding': 'zstd',
    });
    expect(unknown.status).toBe(415);
    expect(unknown.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', field: 'content-encoding' });
    const corrupt = await command(Buffer.from('not gzip at all'), {
      'content-type': 'application/json',
      'content-encoding': 'gzip',
    });
    expect(corrupt.status).toBe(400);
    expect(corrupt.body).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: 'the body is not valid gzip data',
      field: 'content-encoding',
    });
    expect(await events()).toBe(before);
  });

  it('the body limit counts inflated bytes: a small gzip of a huge body is 413', async () => {
    const bomb = gzipSync(note('x'.repeat(1_000_000)));
    expect(bomb.length).toBeLessThan(16 * 1024);
    const res = await command(bomb, { 'content-type': 'application/json', 'content-encoding': 'gzip' });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ code: 'PAYLOAD_TOO_LARGE' });
  });

  it('a body over the limit is 413 PAYLOAD_TOO_LARGE', async () => {
    const res = await command(note('y'.repeat(20_000)), { 'content-type': 'application/json' });
    expect(res.status).toBe(413);
    expect(res.body).toMatchObject({ statusCode: 413, code: 'PAYLOAD_TOO_LARGE' });
  });

  it('JSON in UTF-16 is decoded by its charset; a charset that is no UTF is 415', async () => {
    const text = JSON.stringify({ type: 'AddNote', text: 'in UTF-16 — ✓' });
    const utf16 = await command(Buffer.from(text, 'utf16le'), {
      'content-type': 'application/json; charset=utf-16le',
    });
    expect(utf16.status).toBe(200);
    expect(utf16.body.events[0].data).toEqual({ text: 'in UTF-16 — ✓' });
    const latin1 = await command(Buffer.from(text, 'latin1'), {
      'content-type': 'application/json; charset=latin1',
    });
    expect(latin1.status).toBe(415);
    expect(latin1.body).toMatchObject({ code: 'UNSUPPORTED_MEDIA_TYPE', field: 'content-type' });
  });

  it('charset=utf-16 takes either byte order: the BOM’s, or without one what JSON’s first character shows', async () => {
    const text = JSON.stringify({ type: 'AddNote', text: 'UTF-16 — ✓' });
    const le = Buffer.from(text, 'utf16le');
    const be = Buffer.from(le).swap16();
    const bodies: [string, Buffer][] = [
      ['big-endian with a BOM', Buffer.concat([Buffer.from([0xfe, 0xff]), be])],
      ['big-endian without one', be],
      ['little-endian with a BOM', Buffer.concat([Buffer.from([0xff, 0xfe]), le])],
      ['little-endian without one', le],
      ['big-endian after white space', Buffer.from(Buffer.from(`  ${text}`, 'utf16le')).swap16()],
    ];
    for (const [, body] of bodies) {
      const res = await command(body, { 'content-type': 'application/json; charset=utf-16' });
      expect(res.status).toBe(200);
      expect(res.body.events[0].data).toEqual({ text: 'UTF-16 — ✓' });
    }
  });

  it.each([
    ['a parameter without a value', 'application/json; charset'],
    ['an empty charset', 'application/json; charset='],
    ['two charsets', 'application/json; charset=utf-8; charset=utf-16le'],
    ['two media types', 'application/json, text/plain'],
  ])(
    'a Content-Type with %s cannot be read: 415 naming content-type, nothing appended',
    async (_name, type) => {
      const before = await events();
      const res = await command(note('which charset?'), { 'content-type': type });
      expect(res.status).toBe(415);
      expect(res.body).toMatchObject({
        statusCode: 415,
        code: 'UNSUPPORTED_MEDIA_TYPE',
        field: 'content-type',
      });
      expect(res.body.message).toMatch(/^the Content-Type header cannot be read: /);
      const graphql = await t.http
        .post('/graphql')
        .set('content-type', type)
        .send(JSON.stringify({ query: '{ __typename }' }));
      expect(graphql.status).toBe(415);
      expect(graphql.body.errors[0].extensions).toMatchObject({
        code: 'UNSUPPORTED_MEDIA_TYPE',
        field: 'content-type',
      });
      expect(await events()).toBe(before);
    },
  );

  it('empty parameters are allowed (RFC 9110): application/json;; charset=utf-8; is read', async () => {
    const res = await command(note('empty parameters'), {
      'content-type': 'application/json;; charset=utf-8;',
    });
    expect(res.status).toBe(200);
  });

  it.each([
    ['broken JSON', '{"type":"AddNote",'],
    ['a bare word', 'AddNote'],
  ])('%s as the body is 400 INVALID_JSON', async (_name, text) => {
    const res = await command(Buffer.from(text), { 'content-type': 'application/json' });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ statusCode: 400, code: 'INVALID_JSON' });
  });

  it.each([
    ['a bare string', '"AddNote"'],
    ['a number', '42'],
    ['null', 'null'],
    ['true', ' true '],
  ])(
    '%s as the body is JSON but no object: 400 VALIDATION_FAILED naming body, as an array is',
    async (_name, text) => {
      const res = await command(Buffer.from(text), { 'content-type': 'application/json' });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        statusCode: 400,
        code: 'VALIDATION_FAILED',
        message: 'the body must be a JSON object',
        field: 'body',
      });
    },
  );

  it.each([
    ['a lone byte 0xFF', Buffer.from([0xff]), 'utf-8'],
    ['a surrogate written in UTF-8', Buffer.from([0xed, 0xa0, 0x80]), 'utf-8'],
    ['an overlong NUL', Buffer.from([0xc0, 0x80]), 'utf-8'],
    ['a lone UTF-16 surrogate', Buffer.from([0x00, 0xd8]), 'utf-16le'],
  ])(
    'a body holding %s is 400 INVALID_JSON naming body, not stored with U+FFFD in its place',
    async (_n, bad, charset) => {
      const before = await events();
      const [head, tail] = ['{"type":"AddNote","text":"A', 'B"}'].map((part) =>
        Buffer.from(part, charset === 'utf-8' ? 'utf8' : 'utf16le'),
      );
      const res = await command(Buffer.concat([head, bad, tail]), {
        'content-type': `application/json; charset=${charset}`,
      });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'INVALID_JSON', field: 'body' });
      expect(res.body.message).toBe(
        `the request body is not valid ${charset.toUpperCase()}: it holds bytes that are no character`,
      );
      expect(await events()).toBe(before);
    },
  );

  it('an empty body is no body, whatever its Content-Type: a command is 400 VALIDATION_FAILED naming body either way', async () => {
    const before = await events();
    const refusal = {
      statusCode: 400,
      code: 'VALIDATION_FAILED',
      message: 'the body must be a JSON object',
      field: 'body',
    };
    for (const headers of <Record<string, string>[]>[
      { 'content-type': 'application/json', 'content-length': '0' },
      { 'content-type': 'application/json; charset=utf-8', 'content-length': '2' },
      { 'content-length': '0' },
    ]) {
      const res = await command(Buffer.from(headers['content-length'] === '2' ? '\r\n' : ''), headers);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(refusal);
    }
    expect(await events()).toBe(before);
  });

  describe('POST /graphql refused before GraphQL reads it: the GraphQL error shape, with the same status and code', () => {
    const graphql = (body: string | Buffer, type = 'application/json', accept?: string) => {
      const req = t.http.post('/graphql').set('content-type', type);
      if (accept) void req.set('accept', accept);
      return req.serialize((b: unknown) => b as string).send(body);
    };
    it.each([
      [
        'too large',
        JSON.stringify({ query: `{ __typename } # ${'x'.repeat(20_000)}` }),
        'application/json',
        413,
        'PAYLOAD_TOO_LARGE',
        undefined,
      ],
      ['not JSON', '{"query":', 'application/json', 400, 'INVALID_JSON', 'body'],
      [
        'nested too deep',
        `{"query":"{ __typename }","extensions":${'['.repeat(100)}${']'.repeat(100)}}`,
        'application/json',
        400,
        'BODY_TOO_DEEP',
        'body',
      ],
      [
        'naming a member twice',
        '{"query":"{ __typename }","operationName":null,"operationName":"Q"}',
        'application/json',
        400,
        'DUPLICATE_KEY',
        'operationName',
      ],
      [
        'in a media type GraphQL does not take',
        '{ __typename }',
        'text/plain',
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'content-type',
      ],
      [
        'in a charset that is no UTF',
        '{"query":"{ __typename }"}',
        'application/json; charset=latin1',
        415,
        'UNSUPPORTED_MEDIA_TYPE',
        'content-type',
      ],
    ])('a body %s', async (_name, body, type, status, code, field) => {
      const res = await graphql(body, type);
      expect(res.status).toBe(status);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body).toEqual({
        errors: [
          {
            message: expect.any(String),
            extensions: {
              statusCode: status,
              code,
              message: res.body.errors[0].message,
              ...(field ? { field } : {}),
            },
          },
        ],
      });
    });

    it('in application/graphql-response+json when the client asks for it; REST routes keep their shape', async () => {
      const res = await graphql('{"query":', 'application/json', 'application/graphql-response+json');
      expect(res.status).toBe(400);
      expect(res.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
      expect(JSON.parse(res.text).errors[0].extensions).toMatchObject({ code: 'INVALID_JSON' });
      const rest = await command(Buffer.from('{"type":'), { 'content-type': 'application/json' });
      expect(rest.body).toEqual({
        statusCode: 400,
        code: 'INVALID_JSON',
        message: 'the request body is not valid JSON',
        field: 'body',
      });
    });
  });

  it('a __proto__ key is data, as JSON.parse reads it: no prototype is touched', async () => {
    const res = await command(Buffer.from('{"type":"AddNote","text":"proto","__proto__":{"polluted":1}}'), {
      'content-type': 'application/json',
    });
    expect(res.status).toBeLessThan(500);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });

  it('any GET answer carries an ETag, and If-None-Match with it is 304 without a body', async () => {
    const first = await t.anon.get('/systems').expect(200);
    const tag = first.headers.etag;
    expect(tag).toMatch(/^W\/"/);
    const again = await t.anon.get('/systems').set('if-none-match', tag).expect(304);
    expect(again.text ?? '').toBe('');
    await t.anon.get('/systems').set('if-none-match', 'W/"other"').expect(200);
  });

  it('If-None-Match is judged whatever the request’s Cache-Control says: fetch() adds no-cache beside it, and still gets its 304', async () => {
    const tag = (await t.anon.get('/systems').expect(200)).headers.etag;
    for (const cacheControl of ['no-cache', 'max-age=0', 'no-cache, no-store'])
      await t.anon.get('/systems').set('if-none-match', tag).set('cache-control', cacheControl).expect(304);
    await t.anon.get('/systems').set('if-none-match', tag).set('pragma', 'no-cache').expect(304);
    // Weak comparison: the strong form of the tag names the same state; `*` names any.
    await t.anon
      .get('/systems')
      .set('if-none-match', `"other", ${tag.slice(2)}`)
      .expect(304);
    await t.anon.get('/systems').set('if-none-match', '*').set('cache-control', 'no-cache').expect(304);
    await t.anon
      .get('/systems')
      .set('if-none-match', 'W/"other"')
      .set('cache-control', 'no-cache')
      .expect(200);
  });

  it.each([
    ['a method that is no token', 'G@T /systems HTTP/1.1\r\nHost: x\r\n\r\n', 'method'],
    ['a control character in the path', 'GET /sys\x01tems HTTP/1.1\r\nHost: x\r\n\r\n', 'path'],
    [
      'a control character in a header value',
      'GET /systems HTTP/1.1\r\nHost: x\r\nX-A: a\x01b\r\n\r\n',
      'headers',
    ],
    [
      'a Content-Length that is no number',
      'POST /fights HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
      'content-length',
    ],
    [
      'Content-Length with Transfer-Encoding',
      'POST /fights HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      'transfer-encoding',
    ],
  ])(
    '%s is 400 BAD_REQUEST naming the part at fault, and the connection is closed',
    async (_name, raw, field) => {
      const { text } = await onSocket(t.url!, raw);
      const [head, body] = text.split('\r\n\r\n');
      expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
      expect(head).toContain('Connection: close');
      expect(JSON.parse(body)).toMatchObject({ statusCode: 400, code: 'BAD_REQUEST', field });
    },
  );

  it('an HTTP/1.1 request without Host is 400 BAD_REQUEST naming host in the error shape, and the connection is closed; HTTP/1.0 needs none', async () => {
    const { text } = await onSocket(t.url!, 'GET /systems HTTP/1.1\r\n\r\n');
    const [head, body] = text.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
    expect(head.toLowerCase()).toContain('connection: close');
    expect(JSON.parse(body)).toEqual({
      statusCode: 400,
      code: 'BAD_REQUEST',
      message: 'an HTTP/1.1 request must send the Host header',
      field: 'host',
    });
    const old = await onSocket(t.url!, 'GET /health/live HTTP/1.0\r\n\r\n');
    expect(old.text.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
  });

  it.each([
    ['a request line that is not HTTP', 'HELLO THERE\r\n\r\n', 400, 'BAD_REQUEST'],
    [
      'a header without a colon',
      'GET /systems HTTP/1.1\r\nHost: x\r\nbroken header\r\n\r\n',
      400,
      'BAD_REQUEST',
    ],
    [
      'headers past the size limit',
      `GET /systems HTTP/1.1\r\nHost: x\r\nx-big: ${'a'.repeat(20_000)}\r\n\r\n`,
      431,
      'HEADERS_TOO_LARGE',
    ],
  ])('%s gets the error shape on the socket, never a bare close', async (_name, raw, status, code) => {
    const { port } = new URL(t.url!);
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = connect(Number(port), '127.0.0.1', () => socket.write(raw));
      let text = '';
      socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      socket.on('close', () => resolve(text));
      socket.on('error', reject);
    });
    const [head, body] = answer.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe(
      `HTTP/1.1 ${status} ${status === 400 ? 'Bad Request' : 'Request Header Fields Too Large'}`,
    );
    expect(JSON.parse(body)).toMatchObject({ statusCode: status, code });
  });

  it('a path with a trailing slash is the same route', async () => {
    const res = await t.http.get(`/fights/${fightId}/`).expect(200);
    expect(res.body.fightId ?? res.body.id).toBeDefined();
  });
});

/** Raw bytes on a socket to `url`: everything the server answered once it closed the connection, and when. */
function onSocket(url: string, raw: string): Promise<{ text: string; ms: number }> {
  const { port } = new URL(url);
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(raw));
    let text = '';
    socket.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
    socket.on('close', () => resolve({ text, ms: Date.now() - started }));
    socket.on('error', reject);
  });
}

describe('a request that stalls, or expects what the server does not offer', () => {
  const t = useApp({ config: { requestTimeoutMs: 1000 }, listen: true });

  it('given a body that stops arriving, answers 408 REQUEST_TIMEOUT in the error shape once the request timeout passes, and appends nothing', async () => {
    const fightId = await soloFight(t);
    const before = (await t.http.get(`/fights/${fightId}/events`).expect(200)).body.length as number;
    // Five of the hundred bytes promised, then nothing.
    const { text, ms } = await onSocket(
      t.url!,
      `POST /fights/${fightId}/commands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.apiKey}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"typ',
    );
    const [head, body] = text.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 408 Request Timeout');
    expect(JSON.parse(body)).toEqual({
      statusCode: 408,
      code: 'REQUEST_TIMEOUT',
      message: 'the request did not arrive in time',
    });
    expect(ms).toBeGreaterThanOrEqual(900);
    expect(ms).toBeLessThan(10_000);
    expect((await t.http.get(`/fights/${fightId}/events`).expect(200)).body.length).toBe(before);
  });

  it('given Expect: other than 100-continue, answers 417 EXPECTATION_FAILED in the error shape, naming the header', async () => {
    const { text } = await onSocket(
      t.url!,
      'GET /systems HTTP/1.1\r\nHost: x\r\nConnection: close\r\nExpect: bogus\r\n\r\n',
    );
    const [head, body] = text.split('\r\n\r\n');
    expect(head.split('\r\n')[0]).toBe('HTTP/1.1 417 Expectation Failed');
    expect(head.toLowerCase()).toContain('content-type: application/json; charset=utf-8');
    expect(JSON.parse(body)).toEqual({
      statusCode: 417,
      code: 'EXPECTATION_FAILED',
      message: 'the only expectation this server meets is Expect: 100-continue',
      field: 'expect',
    });
  });

  it.each(['Host', 'Content-Type', 'Authorization'])(
    'given %s twice, answers 400 BAD_REQUEST naming it and appends nothing',
    async (header) => {
      const fightId = await soloFight(t);
      const before = (await t.http.get(`/fights/${fightId}/events`).expect(200)).body.length as number;
      const once: Record<string, string> = {
        Host: 'x',
        'Content-Type': 'application/json',
        Authorization: `Bearer ${t.apiKey}`,
      };
      const second = { Host: 'y', 'Content-Type': 'text/plain', Authorization: 'Bearer nobody' }[header];
      const body = JSON.stringify({ type: 'AddNote', text: 'twice' });
      const { text } = await onSocket(
        t.url!,
        `POST /fights/${fightId}/commands HTTP/1.1\r\n` +
          Object.entries(once)
            .map(([name, value]) => `${name}: ${value}\r\n`)
            .join('') +
          `${header}: ${second}\r\nConnection: close\r\nContent-Length: ${body.length}\r\n\r\n${body}`,
      );
      const [head, answer] = text.split('\r\n\r\n');
      expect(head.split('\r\n')[0]).toBe('HTTP/1.1 400 Bad Request');
      expect(JSON.parse(answer)).toEqual({
        statusCode: 400,
        code: 'BAD_REQUEST',
        message: `the ${header} header is sent more than once`,
        field: header.toLowerCase(),
      });
      expect((await t.http.get(`/fights/${fightId}/events`).expect(200)).body.length).toBe(before);
    },
  );

  it.each(['gzip, chunked', 'deflate,chunked'])(
    'given Transfer-Encoding: %s, answers 501 NOT_IMPLEMENTED naming transfer-encoding and appends nothing',
    async (coding) => {
      const fightId = await soloFight(t);
      const before = (await t.http.get(`/fights/${fightId}/events`).expect(200)).body.length as number;
      const body = JSON.stringify({ type: 'AddNote', text: 'coded' });
      const { text } = await onSocket(
        t.url!,
        `POST /fights/${fightId}/commands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.apiKey}\r\n` +
          `Content-Type: application/json\r\nConnection: close\r\nTransfer-Encoding: ${coding}\r\n\r\n` +
          `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
      );
      const [head, answer] = text.split('\r\n\r\n');
      expect(head.split('\r\n')[0]).toBe('HTTP/1.1 501 Not Implemented');
      expect(JSON.parse(answer)).toMatchObject({
        statusCode: 501,
        code: 'NOT_IMPLEMENTED',
        field: 'transfer-encoding',
      });
      expect((await t.http.get(`/fights/${fightId}/events`).expect(200)).body.length).toBe(before);
    },
  );

  it('given Transfer-Encoding: chunked, reads the body', async () => {
    const fightId = await soloFight(t);
    const body = JSON.stringify({ type: 'AddNote', text: 'chunked' });
    const { text } = await onSocket(
      t.url!,
      `POST /fights/${fightId}/commands HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.apiKey}\r\n` +
        'Content-Type: application/json\r\nConnection: close\r\nTransfer-Encoding: Chunked\r\n\r\n' +
        `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`,
    );
    expect(text.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
  });

  it('given Expect: 100-continue, continues and answers the request', async () => {
    const { text } = await onSocket(
      t.url!,
      `POST /fights HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${t.apiKey}\r\nConnection: close\r\n` +
        'Content-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n{}',
    );
    expect(text.startsWith('HTTP/1.1 100 Continue\r\n')).toBe(true);
    expect(text).toMatch(/HTTP\/1\.1 (201|422) /);
  });
});
