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
    const [sealed] = await this.store.readStream(secretStream(fightId));
    if (!sealed) throw new Error(`no sealed seed for fight ${fightId}`);
    return (sealed.data as { seed: string }).seed;
  }
}
