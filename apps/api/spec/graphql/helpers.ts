import { FightEvent, Principal } from '@app/fights';

/** What the live-subscription specs share: who subscribes, and the events fight f1 appends. */
export const GM: Principal = { kind: 'tenant', tenantId: 't1', keyId: 'k1' };
export const OTHER_GM_KEY: Principal = { kind: 'tenant', tenantId: 't1', keyId: 'k2' };
export const SPECTATOR: Principal = { kind: 'spectator', fightId: 'f1', tokenId: 's1' };

/** Event `seq` of fight f1: a note only the GM may read. */
export const event = (seq: number): FightEvent => ({
  fightId: 'f1',
  seq,
  type: 'NoteAdded',
  v: 1,
  at: '2026-01-01T00:00:00.000Z',
  actor: 'gm',
  commandId: `c${seq}`,
  data: { note: `secret ${seq}` },
  hash: `h${seq}`,
});
