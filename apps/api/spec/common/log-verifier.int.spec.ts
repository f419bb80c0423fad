import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LogFormatError } from '@app/audit';
import { AppError } from '@app/fights';
import { PostedLog } from '../../src/common/body-checks';
import { LogVerifier, verifyPosted, verifyText } from '../../src/common/log-verifier';

/** The recorded fights of test/regression-fixtures.e2e.spec.ts: every system and dice mode, one with an undo. */
const DIR = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'logs');
const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ name: f, text: readFileSync(join(DIR, f), 'utf8') }));

/** The worker loaded from the TypeScript source, as the compiled one is in production. */
const workerOptions = {
  workerFile: join(__dirname, '../../src/common/verify-worker.ts'),
  execArgv: ['--require', join(__dirname, '../../../../test/support/ts-require.js')],
};
const inWorker = () => new LogVerifier(workerOptions);

/** What the calling thread would have thrown, or undefined. */
function thrownInCaller(text: string): unknown {
  try {
    verifyText(text);
    return undefined;
  } catch (e) {
    return e;
  }
}

/**
 * The turns the calling thread's event loop takes while `work` runs. Work done in the calling thread
 * runs back to back, with no turn between (0); work on the worker leaves the loop turning.
 */
async function turnsWhile(work: () => Promise<unknown>): Promise<number> {
  let turns = 0;
  let done = false;
  const spin = () => {
    turns++;
    if (!done) setImmediate(spin);
  };
  setImmediate(spin);
  await work();
  done = true;
  return turns;
}

describe('the log verifier on a worker thread', () => {
  const verifier = inWorker();
  afterAll(() => verifier.close());

  it.each(fixtures)('gives the report the calling thread gives: $name', async ({ text }) => {
    expect(await verifier.verify(text)).toEqual(verifyText(text));
  });

  it('gives the head check the options it was sent', async () => {
    const { text } = fixtures[0];
    const report = await verifier.verify(text, { headHash: 'f'.repeat(64) });
    expect(report.checks.head.status).toBe('failed');
    expect(report).toEqual(verifyText(text, { headHash: 'f'.repeat(64) }));
  });

  it('refuses a malformed log with the LogFormatError the calling thread throws', async () => {
    const log = JSON.parse(fixtures[0].text) as { entries: Array<Record<string, unknown>> };
    delete log.entries[2].hash;
    const ndjson = ['{"format":"nope"', 'not json'].join('\n');
    for (const text of [JSON.stringify(log), ndjson, '[]']) {
      const expected = thrownInCaller(text);
      expect(expected).toBeInstanceOf(LogFormatError);
      const got = await verifier.verify(text).catch((e: unknown) => e);
      expect(got).toBeInstanceOf(LogFormatError);
      expect(got).toMatchObject({
        message: (expected as LogFormatError).message,
        line: (expected as LogFormatError).line,
        field: (expected as LogFormatError).field,
        code: 'LOG_FORMAT_INVALID',
      });
    }
  });

  it('refuses a log with the refusal it was sent (a number its sender wrote otherwise), after the log’s own format errors, as the calling thread does', async () => {
    const field = 'entries[3].seq';
    const refusal = {
      message: `${field} is written 4e0`,
      field,
      issues: [{ field, message: `${field} is written 4e0` }],
    };
    const refused = await verifier.verify(fixtures[0].text, {}, refusal).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(LogFormatError);
    expect(refused).toMatchObject({ code: 'LOG_FORMAT_INVALID', ...refusal });
    const log = JSON.parse(fixtures[0].text) as Record<string, unknown>;
    const malformed = JSON.stringify({ ...log, extra: 1 });
    const first = await verifier.verify(malformed, {}, refusal).catch((e: unknown) => e);
    expect(first).toMatchObject({ field: 'extra' });
    expect(first).toMatchObject({ field: (thrownInCaller(malformed) as LogFormatError).field });
  });

  it('leaves the calling thread free while it verifies', async () => {
    const texts = fixtures.flatMap(({ text }) => Array<string>(10).fill(text));
    expect(await turnsWhile(() => Promise.all(texts.map((text) => verifier.verify(text))))).toBeGreaterThan(
      10,
    );
  });

  it('answers logs sent together, each with its own report', async () => {
    const reports = await Promise.all(fixtures.map(({ text }) => verifier.verify(text)));
    expect(reports.map((r) => r.fightId)).toEqual(fixtures.map(({ text }) => verifyText(text).fightId));
  });
});

/** A body as POST /audit/verify takes it in: bytes, charset and media type, with the URL and query. */
const posted = (
  body: string | Buffer,
  over: Partial<PostedLog['body'] & Omit<PostedLog, 'body'>> = {},
): PostedLog => ({
  body: {
    bytes: typeof body === 'string' ? Buffer.from(body) : body,
    charset: over.charset ?? 'utf-8',
    media: over.media ?? 'json',
  },
  url: over.url ?? '/audit/verify',
  query: over.query ?? {},
});

/** verifyPosted in the calling thread: its report, or what it throws. */
function postedInCaller(p: PostedLog): unknown {
  try {
    return verifyPosted(p);
  } catch (e) {
    return e;
  }
}

describe('a posted log, read and verified on the worker thread', () => {
  const verifier = inWorker();
  afterAll(() => verifier.close());
  const { text } = fixtures[0];
  const ndjson = () => {
    const log = JSON.parse(text) as { entries: unknown[] } & Record<string, unknown>;
    const { entries, ...header } = log;
    return [header, ...entries].map((line) => JSON.stringify(line)).join('\n');
  };

  it('given a JSON log and its NDJSON form, gives the report of the log itself', async () => {
    expect(await verifier.verifyPosted(posted(text))).toEqual(verifyText(text));
    expect(await verifier.verifyPosted(posted(ndjson(), { media: 'ndjson' }))).toEqual(verifyText(text));
  });

  it('given UTF-16 bytes with their charset, decodes them as the request thread would', async () => {
    const utf16 = Buffer.from(`\uFEFF${text}`, 'utf16le');
    expect(await verifier.verifyPosted(posted(utf16, { charset: 'utf-16le' }))).toEqual(verifyText(text));
  });

  it('given ?headHash= and ?events=, checks the head against them', async () => {
    const query = { headHash: 'f'.repeat(64), events: '3' };
    const report = await verifier.verifyPosted(posted(text, { query }));
    expect(report.checks.head.status).toBe('failed');
    expect(report).toEqual(verifyText(text, { headHash: 'f'.repeat(64), events: 3 }));
  });

  // Each case is refused with the error, in the order, the route gave when the request thread read
  // the body: depth, JSON, the path's and query's strings, the body's strings, the options, the shape, the log.
  it.each([
    ['nested 100 deep', posted(`{"a":${'['.repeat(100)}${']'.repeat(100)}}`), 400, 'BODY_TOO_DEEP', 'body'],
    ['not JSON', posted('{"format": '), 400, 'INVALID_JSON', 'body'],
    ['a JSON string at the top', posted('"a log"'), 400, 'LOG_FORMAT_INVALID', 'body'],
    ['bytes that are not UTF-8', posted(Buffer.from([0x7b, 0xff, 0x7d])), 400, 'INVALID_JSON', 'body'],
    ['not JSON, with a bad ?events=', posted('{', { query: { events: 'ten' } }), 400, 'INVALID_JSON', 'body'],
    [
      'U+0000 in a key of an entry',
      posted('{"entries":[{"a\\u0000":1}]}'),
      400,
      'INVALID_STRING',
      'entries[0].a\\u0000',
    ],
    ['U+0000 in NDJSON text', posted('{"a":"\u0000"}', { media: 'ndjson' }), 400, 'INVALID_STRING', 'body'],
    [
      'a lone surrogate in the query',
      posted('{', { query: { headHash: '\ud800' } }),
      400,
      'INVALID_JSON',
      'body',
    ],
    [
      'a lone surrogate in the query of a log',
      posted(text, { query: { headHash: '\ud800' } }),
      400,
      'INVALID_STRING',
      'headHash',
    ],
    ['a bad ?events=', posted(text, { query: { events: 'ten' } }), 400, 'VALIDATION_FAILED', 'events'],
    ['a JSON array', posted('[1]'), 400, 'LOG_FORMAT_INVALID', 'body'],
    ['an empty JSON body (no body)', posted(''), 400, 'LOG_FORMAT_INVALID', 'body'],
  ])("given %s, refuses it with the calling thread's AppError", async (_name, p, status, code, field) => {
    const expected = postedInCaller(p);
    expect(expected).toBeInstanceOf(AppError);
    expect(expected).toMatchObject({ status, code, field });
    const got = await verifier.verifyPosted(p).catch((e: unknown) => e);
    expect(got).toBeInstanceOf(AppError);
    expect(got).toEqual(expected);
    expect((got as AppError).message).toBe((expected as AppError).message);
    // The worker refused it: nothing fell back to the calling thread.
    expect(verifier.verifiedInCaller).toBe(0);
  });

  it('given a readable body that is no log, refuses it with the LogFormatError the calling thread throws', async () => {
    for (const p of [posted('{"not":"a log"}'), posted('{"format":"nope"}\nnot json', { media: 'ndjson' })]) {
      const expected = postedInCaller(p) as LogFormatError;
      expect(expected).toBeInstanceOf(LogFormatError);
      const got = await verifier.verifyPosted(p).catch((e: unknown) => e);
      expect(got).toBeInstanceOf(LogFormatError);
      expect(got).toMatchObject({ message: expected.message, line: expected.line, field: expected.field });
    }
    expect(verifier.verifiedInCaller).toBe(0);
  });

  it('leaves the calling thread free while it reads and verifies posted logs', async () => {
    const bodies = fixtures.flatMap((f) => Array<PostedLog>(10).fill(posted(f.text)));
    expect(await turnsWhile(() => Promise.all(bodies.map((p) => verifier.verifyPosted(p))))).toBeGreaterThan(
      10,
    );
  });
});

describe('the logs waiting for the worker, bounded in bytes', () => {
  const small = fixtures.reduce((a, b) => (a.text.length <= b.text.length ? a : b)).text;
  /** A verifier on the worker that keeps `maxQueuedBytes` waiting, for `use`, then closed. */
  async function bounded(maxQueuedBytes: number, use: (verifier: LogVerifier) => Promise<void>) {
    const verifier = new LogVerifier({ ...workerOptions, maxQueuedBytes });
    try {
      await use(verifier);
    } finally {
      await verifier.close();
    }
  }

  it('given more logs at once than the bound holds, refuses the rest with 503 VERIFIER_BUSY and verifies the others', async () => {
    // Room for two logs: all six are sent in one turn, before the worker can answer any.
    await bounded(2 * small.length, async (verifier) => {
      const answers = await Promise.allSettled(Array.from({ length: 6 }, () => verifier.verify(small)));
      expect(answers.map((a) => a.status)).toEqual([
        'fulfilled',
        'fulfilled',
        'rejected',
        'rejected',
        'rejected',
        'rejected',
      ]);
      for (const a of answers.slice(0, 2)) expect(a).toMatchObject({ value: verifyText(small) });
      for (const a of answers.slice(2)) {
        const reason = (a as PromiseRejectedResult).reason as AppError;
        expect(reason).toBeInstanceOf(AppError);
        expect(reason).toMatchObject({ status: 503, code: 'VERIFIER_BUSY', field: undefined });
        expect(reason.message).toMatch(/2 fight logs/);
      }
      // Answered logs leave the queue: the next one is taken again.
      expect(verifier.queuedBytes).toBe(0);
      expect(await verifier.verify(small)).toEqual(verifyText(small));
      expect(verifier.verifiedInCaller).toBe(0);
    });
  });

  it('given a log larger than the bound, takes it when none waits, and counts a posted body by its bytes', async () => {
    await bounded(10, async (verifier) => {
      const first = verifier.verifyPosted(posted(small));
      expect(verifier.queuedBytes).toBe(Buffer.byteLength(small));
      await expect(verifier.verify(small)).rejects.toMatchObject({ status: 503, code: 'VERIFIER_BUSY' });
      expect(await first).toEqual(verifyText(small));
      expect(verifier.queuedBytes).toBe(0);
    });
  });

  it('given refusals and format errors from the worker, frees their bytes too', async () => {
    await bounded(1, async (verifier) => {
      await expect(verifier.verify('not json')).rejects.toBeInstanceOf(LogFormatError);
      await expect(verifier.verifyPosted(posted('{'))).rejects.toMatchObject({ code: 'INVALID_JSON' });
      expect(verifier.queuedBytes).toBe(0);
      expect(await verifier.verify(small)).toEqual(verifyText(small));
    });
  });
});

describe('the log verifier without a worker', () => {
  it('given no worker file, verifies in the calling thread (Jest, or a build without the worker)', async () => {
    const verifier = new LogVerifier({ workerFile: undefined });
    let turned = false;
    setImmediate(() => (turned = true));
    const report = await verifier.verify(fixtures[0].text);
    expect(turned).toBe(false);
    expect(report).toEqual(verifyText(fixtures[0].text));
  });

  it('given a worker that cannot start, still answers every log, in the calling thread', async () => {
    const verifier = new LogVerifier({ workerFile: join(__dirname, 'no-such-worker.js') });
    const reports = await Promise.all(fixtures.slice(0, 2).map(({ text }) => verifier.verify(text)));
    expect(reports).toEqual(fixtures.slice(0, 2).map(({ text }) => verifyText(text)));
    expect(verifier.verifiedInCaller).toBe(2);
    await verifier.close();
  });

  it('given no worker, reads a posted log in the calling thread with the same answer', async () => {
    const verifier = new LogVerifier({ workerFile: undefined });
    const { text } = fixtures[0];
    expect(await verifier.verifyPosted(posted(text))).toEqual(verifyText(text));
    await expect(verifier.verifyPosted(posted('{'))).rejects.toMatchObject({ code: 'INVALID_JSON' });
  });

  it('after close, verifies in the calling thread', async () => {
    const verifier = inWorker();
    await verifier.close();
    expect(await verifier.verify(fixtures[0].text)).toEqual(verifyText(fixtures[0].text));
  });
});
