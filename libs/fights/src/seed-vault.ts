import { randomBytes } from 'node:crypto';
import { EventStore } from '@app/event-store';
import { secretStream } from '@app/fight-log';

/**
 * C2: the fight's dice seed is kept out of the fight's own stream until
 * FightEnded reveals it. It lives in a private stream of the same store, so it
 * survives restarts and moves with the log on every engine.
 */
export class SeedVault {
  constructor(private readonly store: EventStore) {}

  static newSeed(): string {
    return randomBytes(32).toString('hex');
  }

  async seal(fightId: string, seed: string): Promise<void> {
    await this.store.append(
      secretStream(fightId),
      [{ id: crypto.randomUUID(), type: 'SeedSealed', data: { seed }, metadata: { fightId } }],
      { expectedRevision: 'no_stream' },
    );
  }

  async open(fightId: string): Promise<string> {
    const seed = await this.sealed(fightId);
    if (seed === undefined) throw new Error(`no sealed seed for fight ${fightId}`);
    return seed;
  }

  /** The fight's sealed seed, undefined when none is sealed yet (a creation that stopped before it). */
  async sealed(fightId: string): Promise<string | undefined> {
    const [sealed] = await this.store.readStream(secretStream(fightId), { limit: 1 });
    return sealed && (sealed.data as { seed: string }).seed;
  }
}
