import WebSocket from 'ws';
import { createClient } from 'graphql-ws';
import { sheet } from './support/app';
import { kill } from './support/server';
import { twoInstances } from './support/two-instances';

const PG_URL = process.env.EVENT_STORE_PG_URL;

async function until(check: () => boolean | Promise<boolean>, timeoutMs = 60000): Promise<void> {
  const started = Date.now();
  while (!(await check())) {
    if (Date.now() - started > timeoutMs) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
}

if (!PG_URL) {
  console.warn(
    'Two-instance PostgreSQL suite SKIPPED: set EVENT_STORE_PG_URL=postgres://user@host:5432/db to run it',
  );
  describe.skip('two API instances on one PostgreSQL (SKIPPED: EVENT_STORE_PG_URL is not set)', () =>
    it('needs PostgreSQL', () => undefined));
} else {
  describe('two API instances on one PostgreSQL', () => {
    const pair = twoInstances(PG_URL, 'mi');
    const { servers, post } = pair;

    it('a command sent to one instance reaches subscribers connected to the other, in order', async () => {
      const [a, b] = servers;
      const created = await post(`${a.url}/fights`, {
        system: 'narateer',
        dice: { mode: 'manual' },
        combatants: [{ id: 'x', name: 'X', sheet: sheet() }],
      });
      expect(created.status).toBe(201);
      const fightId = created.body.fightId;
      const client = createClient({
        url: `${b.url.replace('http', 'ws')}/graphql`,
        webSocketImpl: WebSocket,
        retryAttempts: 0,
        connectionParams: { authorization: `Bearer ${pair.key}` },
      });
      const seen: number[] = [];
      const stop = client.subscribe<{ fightEvents: { seq: number } }>(
        { query: 'subscription($f: ID!) { fightEvents(fightId: $f) { seq } }', variables: { f: fightId } },
        {
          next: (r) => seen.push(r.data!.fightEvents.seq),
          error: () => undefined,
          complete: () => undefined,
        },
      );
      await until(() => seen.length === created.body.seq);
      let last = 0;
      for (let i = 0; i < 20; i++) {
        const target = i % 2 === 0 ? a : b;
        const res = await post(`${target.url}/fights/${fightId}/commands`, {
          type: 'AddNote',
          text: `from ${i % 2 === 0 ? 'a' : 'b'}`,
        });
        expect(res.status).toBe(200);
        last = res.body.seq;
      }
      await until(() => seen.at(-1) === last);
      expect(seen).toEqual(Array.from({ length: last }, (_, i) => i + 1));
      stop();
      await client.dispose();
      // Both instances' projections agree.
      const views = await Promise.all(
        servers.map(
          async (s) =>
            (await (
              await fetch(`${s.url}/fights/${fightId}?minSeq=${last}`, {
                headers: { authorization: `Bearer ${pair.key}` },
              })
            ).json()) as any,
        ),
      );
      expect(views[0]).toEqual(views[1]);
      expect(views[0].seq).toBe(last);
    });

    it('one instance owns the read side (docs/event-store.md), and the other reads what it folds with ?minSeq=', async () => {
      const ready = await Promise.all(
        servers.map(
          async (s) => ((await (await fetch(`${s.url}/health/ready`)).json()) as any).info.readSide,
        ),
      );
      expect(ready.map((r) => r.owner).sort()).toEqual([false, true]);
      expect(ready.map((r) => r.mode)).toEqual(['elected', 'elected']);
      const follower = servers[ready.findIndex((r) => !r.owner)];
      const created = await post(`${follower.url}/fights`, { system: 'narateer', combatants: [] });
      const res = await post(`${follower.url}/fights/${created.body.fightId}/commands`, {
        type: 'AddNote',
        text: 'folded elsewhere',
      });
      const seq = res.body.seq as number;
      const view = (await (
        await fetch(`${follower.url}/fights/${created.body.fightId}?minSeq=${seq}`, {
          headers: { authorization: `Bearer ${pair.key}` },
        })
      ).json()) as { seq: number };
      expect(view.seq).toBe(seq);
      // The list is the read model alone (no fallback to the log, as ?minSeq= has past its wait): it shows the
      // command once the owner has folded it.
      const listed = async () =>
        (
          (await (
            await fetch(`${follower.url}/fights?limit=100`, {
              headers: { authorization: `Bearer ${pair.key}` },
            })
          ).json()) as { items: Array<{ fightId: string; seq: number }> }
        ).items.find((f) => f.fightId === created.body.fightId)?.seq;
      await until(async () => (await listed()) === seq);
      expect(await listed()).toBe(seq);
      const metrics = await (await fetch(`${follower.url}/metrics`)).text();
      expect(metrics).toMatch(/^crs_read_side_owner 0$/m);
    });

    it('the instance that does not own the read side passes over fights it neither holds nor watches, and still serves them', async () => {
      const ready = await Promise.all(
        servers.map(
          async (s) => ((await (await fetch(`${s.url}/health/ready`)).json()) as any).info.readSide,
        ),
      );
      const owner = servers[ready.findIndex((r) => r.owner)];
      const follower = servers[ready.findIndex((r) => !r.owner)];
      const created = await post(`${owner.url}/fights`, { system: 'narateer', combatants: [] });
      const fightId = created.body.fightId as string;
      let seq = created.body.seq as number;
      for (let i = 0; i < 5; i++)
        seq = (await post(`${owner.url}/fights/${fightId}/commands`, { type: 'AddNote', text: `a${i}` })).body
          .seq;
      // Never seen here: its first command loads it from the store, at the head, and lands without a conflict.
      const here = await post(`${follower.url}/fights/${fightId}/commands`, {
        type: 'AddNote',
        text: 'b',
        expectedSeq: seq,
      });
      expect(here.status).toBe(200);
      expect(here.body.seq).toBe(seq + 1);
      // Held here now: what the owner writes next is folded on, so the next command here is at the head too.
      const there = await post(`${owner.url}/fights/${fightId}/commands`, { type: 'AddNote', text: 'a' });
      const again = await post(`${follower.url}/fights/${fightId}/commands`, {
        type: 'AddNote',
        text: 'b again',
        expectedSeq: there.body.seq,
      });
      expect(again.status).toBe(200);
      const log = (await (
        await fetch(`${follower.url}/fights/${fightId}/events`, {
          headers: { authorization: `Bearer ${pair.key}` },
        })
      ).json()) as any;
      const seqs = (Array.isArray(log) ? log : log.items).map((e: { seq: number }) => e.seq);
      expect(seqs).toEqual(Array.from({ length: again.body.seq }, (_, i) => i + 1));
    });

    it('killing one instance mid-load loses no acknowledged event; the survivor projects and serves them all', async () => {
      const [a, b] = servers;
      const fights: string[] = [];
      for (let i = 0; i < 3; i++)
        fights.push((await post(`${a.url}/fights`, { system: 'narateer', combatants: [] })).body.fightId);
      const acked = new Map<string, number>();
      let running = true;
      const worker = async (w: number) => {
        for (let n = 0; running; n++) {
          const target = (w + n) % 2 === 0 ? a : b;
          const fightId = fights[(w + n) % fights.length];
          try {
            const res = await post(`${target.url}/fights/${fightId}/commands`, {
              type: 'AddNote',
              text: `w${w}n${n}`,
            });
            if (res.status === 200) acked.set(`${fightId}:${res.body.seq}`, res.body.events[0].seq);
          } catch {
            // the killed instance: not acknowledged
          }
        }
      };
      const workers = Array.from({ length: 8 }, (_, w) => worker(w));
      // Kill once a load is under way (a count of acknowledged commands, not a time), then let the
      // writers go on against the survivor for a while.
      await until(() => acked.size >= 40, 60_000);
      await kill(a.proc, 'SIGKILL');
      const atKill = acked.size;
      await until(() => acked.size >= atKill + 10, 60_000);
      running = false;
      await Promise.all(workers);
      for (const fightId of fights) {
        const log = (await (
          await fetch(`${b.url}/fights/${fightId}/events`, {
            headers: { authorization: `Bearer ${pair.key}` },
          })
        ).json()) as Array<{ seq: number }>;
        expect(log.map((e) => e.seq)).toEqual(log.map((_, i) => i + 1));
        for (const k of acked.keys())
          if (k.startsWith(fightId)) expect(Number(k.split(':')[1])).toBeLessThanOrEqual(log.length);
        const view = (await (
          await fetch(`${b.url}/fights/${fightId}?minSeq=${log.length}`, {
            headers: { authorization: `Bearer ${pair.key}` },
          })
        ).json()) as { seq: number };
        expect(view.seq).toBe(log.length);
      }
    });
  });
}
