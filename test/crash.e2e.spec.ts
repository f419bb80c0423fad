import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeDir, sheet } from './support/app';
import { kill, startServer, tenantKey } from './support/server';

let key = '';
async function post(url: string, body: unknown): Promise<{ status: number; body: any } | undefined> {
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify(body),
    });
    return { status: res.status, body: await res.json() };
  } catch {
    return undefined; // the server died mid-request: not acknowledged
  }
}

describe('crash safety', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'crs-crash-'));
  afterAll(() => removeDir(dataDir));

  it('SIGKILL in the middle of a write load loses no acknowledged event', async () => {
    const first = await startServer({ DATA_DIR: dataDir });
    key = await tenantKey(first.url);
    const fights: string[] = [];
    for (let i = 0; i < 4; i++) {
      const created = await post(`${first.url}/fights`, {
        system: 'narateer',
        dice: { mode: 'manual' },
        combatants: [{ name: 'A', sheet: sheet() }],
      });
      fights.push(created!.body.fightId);
    }
    const acked: Array<{ fightId: string; seq: number; commandId: string; type: string }> = [];
    let running = true;
    const worker = async (w: number) => {
      for (let n = 0; running; n++) {
        const fightId = fights[(w + n) % fights.length];
        const res = await post(`${first.url}/fights/${fightId}/commands`, {
          type: 'AddNote',
          text: `w${w} n${n}`,
          commandId: `w${w}-n${n}`,
        });
        if (res?.status === 200)
          for (const e of res.body.events)
            acked.push({ fightId, seq: e.seq, commandId: e.commandId, type: e.type });
      }
    };
    const workers = Array.from({ length: 16 }, (_, w) => worker(w));
    // Kill once a load is under way (a count of acknowledged events, not a time: a busy machine acks
    // fewer in a given time), with 16 writers still in flight.
    for (const started = Date.now(); acked.length < 100; await new Promise((r) => setTimeout(r, 5)))
      if (Date.now() - started > 60_000) throw new Error(`only ${acked.length} events acknowledged in 60 s`);
    await kill(first.proc, 'SIGKILL');
    running = false;
    await Promise.all(workers);

    const second = await startServer({ DATA_DIR: dataDir });
    try {
      for (const fightId of fights) {
        const log = (await (
          await fetch(`${second.url}/fights/${fightId}/events`, {
            headers: { authorization: `Bearer ${key}` },
          })
        ).json()) as any[];
        expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
        const bySeq = new Map(log.map((e) => [e.seq, e]));
        for (const a of acked.filter((x) => x.fightId === fightId)) {
          expect(bySeq.get(a.seq)).toMatchObject({ commandId: a.commandId, type: a.type });
        }
      }
    } finally {
      await kill(second.proc, 'SIGTERM');
    }
  });
});
