import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { LogFormatError } from '@app/audit';
import { LogVerifier, verifyText } from '../../src/common/log-verifier';

/** The recorded fights of test/regression-fixtures.e2e.spec.ts: every system and dice mode, one with an undo. */
const DIR = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'logs');
const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({ name: f, text: readFileSync(join(DIR, f), 'utf8') }));

/** The verifier with its worker loaded from the TypeScript source, as the compiled one is in production. */
const inWorker = () =>
  new LogVerifier({
    workerFile: join(__dirname, '../../src/common/verify-worker.ts'),
    execArgv: ['--require', join(__dirname, '../../../../test/support/ts-require.js')],
  });

/** What the calling thread would have thrown, or undefined. */
function thrownInCaller(text: string): unknown {
  try {
    verifyText(text);
    return undefined;
  } catch (e) {
    return e;
  }
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

  it('leaves the calling thread free while it verifies', async () => {
    // The calling thread's event loop counts its turns while 100 logs are verified. In the calling
    // thread they would run back to back, with no turn between them (0); here the loop keeps turning.
    let turns = 0;
    let done = false;
    const spin = () => {
      turns++;
      if (!done) setImmediate(spin);
    };
    setImmediate(spin);
    const texts = fixtures.flatMap(({ text }) => Array<string>(10).fill(text));
    await Promise.all(texts.map((text) => verifier.verify(text)));
    done = true;
    expect(turns).toBeGreaterThan(10);
  });

  it('answers logs sent together, each with its own report', async () => {
    const reports = await Promise.all(fixtures.map(({ text }) => verifier.verify(text)));
    expect(reports.map((r) => r.fightId)).toEqual(fixtures.map(({ text }) => verifyText(text).fightId));
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
    await verifier.close();
  });

  it('after close, verifies in the calling thread', async () => {
    const verifier = inWorker();
    await verifier.close();
    expect(await verifier.verify(fixtures[0].text)).toEqual(verifyText(fixtures[0].text));
  });
});
