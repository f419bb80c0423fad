import { join } from 'node:path';
import { isEventStream, levelOf, loggedReq, TurnBatch, withoutToken } from '../../src/ops/logging';

describe('access log redaction', () => {
  it.each([
    ['/fights/f/stream?token=crt_abc_secret', '/fights/f/stream?token=[redacted]'],
    ['/fights/f/stream?after=3&token=crt_abc_secret&x=1', '/fights/f/stream?after=3&token=[redacted]&x=1'],
    ['/fights/f/stream?tok%65n=crt_abc_secret', '/fights/f/stream?tok%65n=[redacted]'],
    ['/fights/f/stream?%74%6F%6B%65%6E=crt_abc_secret', '/fights/f/stream?%74%6F%6B%65%6E=[redacted]'],
    ['/overlay/f?TOKEN=crt_abc_secret', '/overlay/f?TOKEN=[redacted]'],
    [
      '/overlay/f?token[]=crt_abc_secret&token[0]=crt_abc_secret',
      '/overlay/f?token[]=[redacted]&token[0]=[redacted]',
    ],
    ['/overlay/f?token%5B%5D=crt_abc_secret', '/overlay/f?token%5B%5D=[redacted]'],
    ['/overlay/f?+token=crt_abc_secret', '/overlay/f?+token=[redacted]'],
    ['/overlay/f?tok%E0%en=crt_abc_secret', '/overlay/f?tok%E0%en=[redacted]'],
  ])('%s', (url, logged) => {
    expect(withoutToken(url)).toBe(logged);
    expect(withoutToken(url)).not.toContain('secret');
  });

  it('other parameters and URLs without a query are left as they are', () => {
    expect(withoutToken('/fights?limit=5&tokenish=1&notoken=2')).toBe('/fights?limit=5&tokenish=1&notoken=2');
    expect(withoutToken('/fights/f')).toBe('/fights/f');
  });

  it('the request of an access log line goes through it', () => {
    expect(loggedReq({ id: '1', method: 'GET', url: '/fights/f/stream?tok%65n=crt_abc_secret' }).url).toBe(
      '/fights/f/stream?tok%65n=[redacted]',
    );
  });
});

describe('access log levels', () => {
  it.each([
    ['/fights', 201, 'info'],
    ['/fights/f/commands', 422, 'info'],
    ['/fights/f', 404, 'info'],
    ['/fights/f/commands', 409, 'info'],
    ['/fights', 400, 'info'],
    ['/fights', 401, 'warn'],
    ['/fights/f/commands', 403, 'warn'],
    ['/fights', 429, 'warn'],
    ['/fights', 500, 'error'],
    ['/health/ready', 503, 'error'],
    ['/health/live', 200, 'debug'],
    ['/health/ready?x=1', 200, 'debug'],
    ['/metrics', 200, 'debug'],
    ['/metrics', 401, 'warn'],
    ['/metricsx', 200, 'info'],
  ] as const)('%s %d: %s', (url, status, level) => {
    expect(levelOf(url, status)).toBe(level);
  });

  it('a request that failed on its socket is an error whatever its status', () => {
    expect(levelOf('/fights', 200, true)).toBe('error');
    expect(levelOf('/audit/verify', 503, true, 'VERIFIER_BUSY')).toBe('error');
  });

  it('a 503 that sheds load (VERIFIER_BUSY) is a warning; any other 503 or 5xx stays an error', () => {
    expect(levelOf('/audit/verify', 503, false, 'VERIFIER_BUSY')).toBe('warn');
    expect(levelOf('/graphql', 503, false, 'VERIFIER_BUSY')).toBe('warn');
    expect(levelOf('/fights', 503, false, 'STORE_UNAVAILABLE')).toBe('error');
    expect(levelOf('/fights', 500, false, 'VERIFIER_BUSY')).toBe('error');
  });

  it('a 501 for a transfer coding the client chose (NOT_IMPLEMENTED) is a warning; a 501 of another code stays an error', () => {
    expect(levelOf('/fights', 501, false, 'NOT_IMPLEMENTED')).toBe('warn');
    expect(levelOf('/fights', 501, false, 'INTERNAL')).toBe('error');
    expect(levelOf('/fights', 500, false, 'NOT_IMPLEMENTED')).toBe('error');
  });

  it.each([
    [200, 'text/event-stream; charset=utf-8', true],
    [200, 'TEXT/EVENT-STREAM', true],
    [200, 'application/json', false],
    [200, 'text/event-streamer', false],
    [200, undefined, false],
    [401, 'text/event-stream', false],
  ] as const)(
    'status %d with content type %s: an event stream its client may end (%s)',
    (status, type, stream) => {
      expect(isEventStream(status, type)).toBe(stream);
    },
  );
});

describe('access log lines, a turn at a time', () => {
  const sink = () => {
    const writes: string[] = [];
    let syncs = 0;
    return {
      writes,
      syncs: () => syncs,
      write: (text: string) => void writes.push(text),
      flushSync: () => void syncs++,
    };
  };
  const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

  it('the lines of one turn reach the destination in one write, in order, at the end of the turn', async () => {
    const s = sink();
    const batch = new TurnBatch(s);
    batch.write('a\n');
    batch.write('b\n');
    batch.write('c\n');
    expect(s.writes).toEqual([]);
    await nextTurn();
    expect(s.writes).toEqual(['a\nb\nc\n']);
    batch.write('d\n');
    await nextTurn();
    expect(s.writes).toEqual(['a\nb\nc\n', 'd\n']);
  });

  it('flushSync hands the turn’s lines on at once, and the turn writes nothing more', async () => {
    const s = sink();
    const batch = new TurnBatch(s);
    batch.write('last words\n');
    batch.flushSync();
    expect(s.writes).toEqual(['last words\n']);
    expect(s.syncs()).toBe(1);
    await nextTurn();
    expect(s.writes).toEqual(['last words\n']);
  });

  it('a destination that throws loses the lines but not the process', async () => {
    const batch = new TurnBatch({
      write: () => {
        throw new Error('SonicBoom destroyed');
      },
    });
    batch.write('x\n');
    await nextTurn();
    expect(() => batch.flushSync()).not.toThrow();
    const destroyed = new TurnBatch({
      write: () => undefined,
      flush: () => {
        throw new Error('SonicBoom destroyed');
      },
    });
    const said = await new Promise<Error | undefined>((resolve) => destroyed.flush(resolve));
    expect(said?.message).toBe('SonicBoom destroyed');
  });

  it('a process that exits within the turn still writes it (process "exit")', async () => {
    const { spawnSync } = await import('node:child_process');
    const script = [
      `const { TurnBatch } = require(${JSON.stringify(require.resolve('../../src/ops/logging'))});`,
      "const b = new TurnBatch({ write: (t) => require('node:fs').writeSync(1, t) });",
      "b.write('one\\n'); b.write('two\\n'); process.exit(0);",
    ].join('\n');
    const tsRequire = join(__dirname, '../../../../test/support/ts-require.js');
    const r = spawnSync(process.execPath, ['--require', tsRequire, '-e', script], { encoding: 'utf8' });
    expect(r.stdout).toBe('one\ntwo\n');
  });
});
