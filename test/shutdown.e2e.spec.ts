import { request as httpRequest } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import WebSocket from 'ws';
import { removeDir } from './support/app';
import { kill, startServer, tenantKey } from './support/server';

/** Generous: the README's target is 2 s (measured and printed below); before this was fixed, one SSE client held it 10 s. */
const EXIT_BOUND_MS = 5000;

/** An SSE client over plain HTTP: everything it read, and how its response ended. */
function openSse(url: string): Promise<{ text: () => string; ended: Promise<string> }> {
  return new Promise((resolve, reject) => {
    let text = '';
    const req = httpRequest(url, { headers: { accept: 'text/event-stream' } });
    req.on('error', reject);
    req.on('response', (res) => {
      if (res.statusCode !== 200) return reject(new Error(`SSE answered ${res.statusCode}`));
      // 'end', or what cut the response short.
      const ended = new Promise<string>((done) => {
        res.on('end', () => done('end'));
        res.on('error', (e) => done(`response error: ${e.message}`));
        res.on('aborted', () => done('aborted'));
        req.on('error', (e) => done(`request error: ${e.message}`));
      });
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => {
        text += chunk;
        if (text.includes('event: FightStarted')) resolve({ text: () => text, ended });
      });
    });
    req.end();
  });
}

/** A graphql-ws subscription over the raw protocol: resolves once its first event arrived. */
function openSubscription(
  url: string,
  key: string,
  fightId: string,
): Promise<{ closed: Promise<{ code: number; reason: string }> }> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url.replace(/^http/, 'ws') + '/graphql', 'graphql-transport-ws');
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      ws.on('close', (code, reason) => done({ code, reason: reason.toString() })),
    );
    ws.on('error', reject);
    ws.on('open', () =>
      ws.send(JSON.stringify({ type: 'connection_init', payload: { authorization: `Bearer ${key}` } })),
    );
    ws.on('message', (raw) => {
      // Text frames arrive as one Buffer.
      const text = (raw as Buffer).toString();
      const m = JSON.parse(text) as { type: string };
      if (m.type === 'connection_ack')
        ws.send(
          JSON.stringify({
            id: '1',
            type: 'subscribe',
            payload: { query: `subscription { fightEvents(fightId: "${fightId}", after: 0) { seq type } }` },
          }),
        );
      if (m.type === 'next') resolve({ closed });
      if (m.type === 'error') reject(new Error(text));
    });
  });
}

describe('shutdown with open streams (SIGTERM, as Docker sends it)', () => {
  it('ends SSE streams cleanly, closes graphql-ws with 1001, logs each step and exits 0', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crs-shutdown-'));
    const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    let out = '';
    server.proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const key = await tenantKey(server.url);
      const created = await fetch(`${server.url}/fights`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
        body: JSON.stringify({ system: 'narateer', combatants: [] }),
      });
      const { fightId } = (await created.json()) as { fightId: string };
      const sse = await openSse(`${server.url}/fights/${fightId}/stream?token=${key}`);
      const sub = await openSubscription(server.url, key, fightId);

      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        server.proc.once('exit', (code, signal) => resolve({ code, signal })),
      );
      const sent = performance.now();
      server.proc.kill('SIGTERM');
      const bound = new Promise<'still running'>((resolve) =>
        setTimeout(() => resolve('still running'), EXIT_BOUND_MS).unref(),
      );
      const exit = await Promise.race([exited, bound]);
      const ms = Math.round(performance.now() - sent);
      console.log(
        `shutdown with one SSE client and one graphql-ws subscription: exited ${JSON.stringify(exit)} ${ms} ms after SIGTERM (target: 2000 ms)`,
      );

      expect(exit).toEqual({ code: 0, signal: null });
      // The stream's own last message, then the end of the response: no socket error, so EventSource simply reconnects.
      expect(await sse.ended).toBe('end');
      expect(sse.text()).toMatch(/^retry: \d+\n\n/);
      expect(sse.text()).toMatch(/event: shutdown\ndata: \{"code":"SERVER_SHUTTING_DOWN"[^\n]*\n\n$/);
      expect((await sub.closed).code).toBe(1001);

      const lines = out
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const step = (msg: string) => lines.find((l) => l.msg === msg);
      expect(step('shutdown started')).toMatchObject({
        context: 'Shutdown',
        signal: 'SIGTERM',
        open: { sse: 1, ws: 1 },
      });
      expect(step('shutdown: live streams closed')).toMatchObject({
        sse: 1,
        ws: 1,
        cut: 0,
        durationMs: expect.any(Number),
      });
      expect(step('shutdown done')).toMatchObject({ signal: 'SIGTERM', durationMs: expect.any(Number) });
    } finally {
      await kill(server.proc);
      removeDir(dataDir);
    }
  });

  it('with nothing open it exits 0 and logs the same steps', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'crs-shutdown-'));
    const server = await startServer({ DATA_DIR: dataDir, LOG_LEVEL: 'info' });
    let out = '';
    server.proc.stdout!.on('data', (c: Buffer) => (out += c.toString()));
    try {
      const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
        server.proc.once('exit', (code, signal) => resolve({ code, signal })),
      );
      server.proc.kill('SIGINT');
      expect(await exited).toEqual({ code: 0, signal: null });
      expect(out).toContain('"msg":"shutdown: live streams closed"');
      expect(out).toMatch(
        /"msg":"shutdown done"[^\n]*"signal":"SIGINT"|"signal":"SIGINT"[^\n]*"msg":"shutdown done"/,
      );
    } finally {
      await kill(server.proc);
      removeDir(dataDir);
    }
  });
});
