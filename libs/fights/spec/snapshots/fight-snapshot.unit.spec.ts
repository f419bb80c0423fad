import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { InMemoryEventStore } from '@app/event-store';
import { fightStream, foldLog, LogEntry, toNewEvent, undoneList } from '@app/fight-log';
import { findSystem } from '@app/rules';
import { CommandIndex } from '../../src/command-index';
import { FightCache, LoadedFight, viewOf } from '../../src/fight-cache';
import { decodeSnapshot, encodeSnapshot } from '../../src/snapshots/fight-snapshot';
import { MemorySnapshotStore } from '../../src/snapshots/snapshot-store';

/** The recorded fights of test/regression-fixtures.e2e.spec.ts, every system and dice mode, one with an undo. */
const DIR = join(__dirname, '..', '..', '..', '..', 'test', 'fixtures', 'logs');
const fixtures = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .map((f) => ({
    name: f.replace(/\.json$/, ''),
    entries: (JSON.parse(readFileSync(join(DIR, f), 'utf8')) as { entries: LogEntry[] }).entries,
  }));

/** As a client receives it (JSON drops undefined fields). */
const json = (x: unknown): unknown => JSON.parse(JSON.stringify(x));

/** The first `k` events folded as the cache folds a whole stream. */
function foldedTo(entries: LogEntry[], k: number): LoadedFight {
  const head = entries.slice(0, k);
  const system = findSystem(String(head[0].data.system))!;
  const commands = new CommandIndex();
  for (const e of head) commands.add(e.commandId, e.seq);
  return { ...foldLog(system, head[0].fightId, head), commands };
}

async function storeOf(entries: LogEntry[]): Promise<InMemoryEventStore> {
  const store = new InMemoryEventStore();
  await store.append(
    fightStream(entries[0].fightId),
    entries.map((e) => toNewEvent(e)),
    { expectedRevision: 'no_stream' },
  );
  return store;
}

/** Same view, seq, head hash, draws and idempotency answers (the command index, entry for entry). */
function expectSameFight(actual: LoadedFight, expected: LoadedFight, entries: LogEntry[]): void {
  expect(json(viewOf(actual))).toEqual(json(viewOf(expected)));
  expect(json(actual.state)).toEqual(json(expected.state));
  expect([actual.seq, actual.headHash, actual.drawsUsed]).toEqual([
    expected.seq,
    expected.headHash,
    expected.drawsUsed,
  ]);
  expect(actual.commands.entriesAfter(0)).toBe(expected.commands.entriesAfter(0));
  expect(actual.commands.lastCommand).toBe(expected.commands.lastCommand);
  for (const e of entries)
    expect(actual.commands.candidates(e.commandId)).toEqual(expected.commands.candidates(e.commandId));
  expect(actual.commands.candidates('never-sent')).toEqual([]);
}

/** True when an undo after seq `k` takes back an event at or before it (the snapshot cannot be used). */
const undoReachesBack = (entries: LogEntry[], k: number) =>
  entries.some(
    (e) => e.seq > k && e.type === 'ActionsUndone' && undoneList(e.data).some((u) => u.fromSeq <= k),
  );

describe('a fight loaded cold from a snapshot is the fight folded from its whole stream', () => {
  it('the fixtures hold an undo, so both sides of it are covered', () => {
    expect(fixtures.length).toBeGreaterThanOrEqual(10);
    expect(fixtures.some((f) => f.entries.some((e) => e.type === 'ActionsUndone'))).toBe(true);
  });

  it.each(fixtures.map((f) => [f.name, f.entries] as const))(
    '%s: a snapshot after every seq, then the events after it, give the full fold (an undo reaching back folds the whole stream)',
    async (_name, entries) => {
      const store = await storeOf(entries);
      const whole = await new FightCache(store).load(entries[0].fightId);
      expectSameFight(whole, foldedTo(entries, entries.length), entries);
      for (let k = 1; k <= entries.length; k++) {
        const snapshots = new MemorySnapshotStore();
        await snapshots.save(encodeSnapshot(foldedTo(entries, k)));
        const cold = await new FightCache(store, { snapshots }).load(entries[0].fightId);
        expectSameFight(cold, whole, entries);
        // Loaded from the snapshot unless an undo after it takes back what it holds.
        expect(cold.snapshotSeq).toBe(undoReachesBack(entries, k) ? undefined : k);
      }
    },
  );

  it('a cached fight that hears an undo reaching before its snapshot folds its whole stream again', async () => {
    const entries = fixtures.find((f) => f.entries.some((e) => e.type === 'ActionsUndone'))!.entries;
    const undoAt = entries.findIndex((e) => e.type === 'ActionsUndone');
    const store = await storeOf(entries.slice(0, undoAt));
    const snapshots = new MemorySnapshotStore();
    await snapshots.save(encodeSnapshot(foldedTo(entries, undoAt)));
    const cache = new FightCache(store, { snapshots });
    expect((await cache.load(entries[0].fightId)).snapshotSeq).toBe(undoAt);
    await store.append(
      fightStream(entries[0].fightId),
      entries.slice(undoAt).map((e) => toNewEvent(e)),
      { expectedRevision: BigInt(undoAt - 1) },
    );
    expectSameFight(await cache.refresh(entries[0].fightId), foldedTo(entries, entries.length), entries);
  });
});

describe('a snapshot not to be trusted is ignored, never served and never an error', () => {
  const entries = fixtures.find((f) => f.name.startsWith('archsoul-manual'))!.entries;
  const fightId = entries[0].fightId;
  const k = Math.floor(entries.length / 2);
  const good = () => encodeSnapshot(foldedTo(entries, k));

  async function loadWith(payloadOf: (s: ReturnType<typeof good>) => ReturnType<typeof good>) {
    const snapshots = new MemorySnapshotStore();
    await snapshots.save(payloadOf(good()));
    const cold = await new FightCache(await storeOf(entries), { snapshots }).load(fightId);
    expectSameFight(cold, foldedTo(entries, entries.length), entries);
    return cold.snapshotSeq;
  }

  it('given a sound snapshot, it is used', async () => {
    expect(await loadWith((s) => s)).toBe(k);
  });

  it.each([
    [
      'made under another fold version',
      (s: ReturnType<typeof good>) => ({ ...s, version: s.version.replace(/\.f\d+\./, '.f0.') }),
    ],
    [
      'of another schema',
      (s: ReturnType<typeof good>) => ({ ...s, version: s.version.replace(/^s\d+/, 's0') }),
    ],
    ['whose payload is not JSON', (s: ReturnType<typeof good>) => ({ ...s, payload: '{"truncated' })],
    ['whose payload is empty', (s: ReturnType<typeof good>) => ({ ...s, payload: '' })],
    [
      'whose body was altered (checksum)',
      (s: ReturnType<typeof good>) => ({ ...s, payload: s.payload.replace('"drawsUsed":', '"drawsUsed":1') }),
    ],
    ['whose seq is not its row’s', (s: ReturnType<typeof good>) => ({ ...s, seq: s.seq + 1 })],
    [
      'whose command index part was altered (checksum)',
      (s: ReturnType<typeof good>) => ({
        ...s,
        parts: s.parts.map((p) => ({ ...p, entries: p.entries.slice(0, -4) + 'AAAA' })),
      }),
    ],
    ['without its command index parts', (s: ReturnType<typeof good>) => ({ ...s, parts: [] })],
    [
      'whose command index parts stop short of its seq',
      (s: ReturnType<typeof good>) => ({ ...s, parts: s.parts.map((p) => ({ ...p, toSeq: p.toSeq - 1 })) }),
    ],
  ])('given a snapshot %s, the fight folds its whole stream', async (_what, alter) => {
    expect(await loadWith(alter)).toBeUndefined();
  });

  it('given a snapshot off the stream’s hash chain (another log under the same id), it is ignored', async () => {
    const other = entries.map((e) => (e.seq === k ? { ...e, hash: 'f'.repeat(64) } : e));
    const snapshots = new MemorySnapshotStore();
    await snapshots.save(encodeSnapshot(foldedTo(other, k)));
    const cold = await new FightCache(await storeOf(entries), { snapshots }).load(fightId);
    expect(cold.snapshotSeq).toBeUndefined();
    expectSameFight(cold, foldedTo(entries, entries.length), entries);
  });

  it('given a snapshot store that fails, the fight folds its whole stream', async () => {
    const snapshots = new MemorySnapshotStore();
    snapshots.load = () => Promise.reject(new Error('disk on fire'));
    const cold = await new FightCache(await storeOf(entries), { snapshots }).load(fightId);
    expectSameFight(cold, foldedTo(entries, entries.length), entries);
  });

  it('decodeSnapshot refuses another fight’s snapshot', () => {
    expect(decodeSnapshot(good(), 'another-fight')).toBeUndefined();
    expect(decodeSnapshot(good(), fightId)?.seq).toBe(k);
  });

  it('a snapshot never holds the dice seed', () => {
    expect(encodeSnapshot({ ...foldedTo(entries, k), seed: 'secret-seed-value' }).payload).not.toContain(
      'secret-seed-value',
    );
  });
});
