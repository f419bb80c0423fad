import { copyLog, InMemoryEventStore, type EventStore } from '@app/event-store';
import { AccessRegistry, AccessService, actorName, FightService, type Principal } from '@app/fights';
import { commandAt, createFightInput, ROUND, SETUP } from './fight-script';

export interface SeededStore {
  tenantId: string;
  /** The tenant's API key (its hash is in the log, as POST /admin/tenants leaves it). */
  apiKey: string;
  fightIds: string[];
  /** Fight events (the fights' own streams; the seed vault and access streams are not counted). */
  events: number;
  seedMs: number;
}

/** Fights seeded in one in-memory log before it is copied and dropped: a whole 50,000-fight log on the heap is slower. */
const CHUNK = 5000;

/**
 * Fills `target` with a tenant and `fights` fights (created, initiative set; `play`: one full round
 * played, so each is at step 0 of a round) without HTTP: the fight service and access service as the
 * API runs them, over an in-memory log, which one copy per chunk of fights (one transaction on SQLite
 * and PostgreSQL) then writes into the store. The events, hashes and streams are those the API would
 * have written; only the setup is quicker.
 */
export async function seedStore(
  target: EventStore,
  opts: { fights: number; play?: boolean; parallel?: number },
): Promise<SeededStore> {
  const t0 = performance.now();
  let log = new InMemoryEventStore();
  const tenant = await new AccessService(log, new AccessRegistry()).createTenant('Bench table');
  const principal: Principal = { kind: 'tenant', tenantId: tenant.tenantId, keyId: tenant.key.id };
  const actor = { name: actorName(principal), scope: 'all' as const, tenantId: tenant.tenantId };
  const fightIds: string[] = [];
  let events = 0;
  for (let done = 0; done < opts.fights; done += CHUNK) {
    const access = new AccessService(log, new AccessRegistry());
    const service = new FightService(log);
    const one = async () => {
      const created = await service.create(createFightInput(), actor, (id) => access.ownFight(id, principal));
      let seq = (await service.execute(created.fightId, SETUP, actor)).seq;
      for (let s = 0; opts.play && s < ROUND.length; s++)
        seq = (await service.execute(created.fightId, commandAt(s), actor)).seq;
      fightIds.push(created.fightId);
      events += seq;
    };
    let next = done;
    const end = Math.min(opts.fights, done + CHUNK);
    await Promise.all(
      Array.from({ length: opts.parallel ?? 20 }, async () => {
        while (next++ < end) await one();
      }),
    );
    await copyLog(log, target);
    await log.close();
    log = new InMemoryEventStore();
  }
  return {
    tenantId: tenant.tenantId,
    apiKey: tenant.key.secret,
    fightIds,
    events,
    seedMs: performance.now() - t0,
  };
}
