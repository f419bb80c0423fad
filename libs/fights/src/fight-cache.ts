import { EventStore, StoredEvent } from '@app/event-store';
import {
  EventMetadata,
  evolveFight,
  FoldedFight,
  foldLog,
  foldOnto,
  fightStream,
  LogEntry,
  toLogEntry,
} from '@app/fight-log';
import { findSystem } from '@app/rules';
import { CommandIndex } from './command-index';
import { fightNotFound } from './errors';
import { decodeSnapshot } from './snapshots/fight-snapshot';
import { SnapshotStore } from './snapshots/snapshot-store';
import { SnapshotWriter } from './snapshots/snapshot-writer';

/** A fight folded from its stream (libs/fight-log), with what this instance keeps beside the fold. */
export interface LoadedFight extends FoldedFight {
  /** hash of each commandId → the first seq of the commands with that hash (command-index.ts: a few bytes per command). */
  commands: CommandIndex;
  /** The dice seed, once the vault has been read for it. */
  seed?: string;
  /** The seq of the fight's latest snapshot this instance knows of (docs/event-store.md "Snapshots"). */
  snapshotSeq?: number;
  /** The length of the state as JSON when last measured (a cold load, a snapshot): for the cache's size. */
  stateBytes?: number;
}

export interface FightCacheOptions {
  /** Where snapshots of long fights are kept; none: every cold load folds the whole stream. */
  snapshots?: SnapshotStore;
  /** A snapshot is saved once a fight is this many events past its last one. */
  snapshotEvery?: number;
  /** A snapshot that could not be saved (the fight still works: snapshots are a cache). */
  onSnapshotError?: (e: unknown) => void;
  /** The most fights held, and their approximate heap size (approxBytes) at most. */
  maxFights?: number;
  maxBytes?: number;
}

/** Measured with `npm run bench -- --only latency` (docs/event-store.md "Snapshots"). */
export const SNAPSHOT_EVERY = 250;

export interface FightViewResult {
  fightId: string;
  seq: number;
  view: Record<string, unknown>;
}

/** Each folded fight's view, built once: a fight object is never changed, only replaced. */
const views = new WeakMap<FoldedFight, Record<string, unknown>>();

/**
 * The view a fight shows at its head: the rule system's view with the seq and head hash. Built once per
 * folded fight and shared by everyone who asks (a command's answer, the read side, live views), so it must
 * not be changed.
 */
export function viewOf(fight: FoldedFight): Record<string, unknown> {
  let view = views.get(fight);
  if (!view)
    views.set(
      fight,
      (view = { ...fight.system.view(fight.state), seq: fight.seq, headHash: fight.headHash }),
    );
  return view;
}

export function viewResult(fight: FoldedFight): FightViewResult {
  return { fightId: fight.fightId, seq: fight.seq, view: viewOf(fight) };
}

const CACHE_LIMIT = 5000;
/**
 * Fights remembered lately, whatever came after them: the read side writes each fight as it stood at the
 * end of its batch, a few milliseconds behind the commands, and takes its view from here (heldView).
 */
const RECENT = 256;
const CACHE_BYTES = 256 * 1024 * 1024;

/**
 * About the heap a cached fight holds: its state (about half its JSON's length, states sharing their
 * unchanged parts) and its command index (a map entry and an int32 pair a command); calibrated on the bench (benchCacheBound,
 * benchMemory: ~3.4 KB for a fight just set up, ~18 KB at 500 commands). Cheap: the state is measured only on a
 * cold load and on each snapshot.
 */
export function approxBytes(fight: LoadedFight): number {
  return 1024 + ((fight.stateBytes ?? 4096) >> 1) + 36 * fight.commands.size;
}

/**
 * The folded fights this instance holds, the least recently used dropped past the limit; each caught up from
 * the store on demand (another instance may have written), and folded again after an undo. A fight not held is
 * loaded from its latest snapshot and the events after it, or folded from its whole stream.
 */
export class FightCache {
  private readonly fights = new Map<string, LoadedFight>();
  /** The last RECENT fights remembered, by fight id and seq (`id:seq`), oldest first. */
  private readonly recent = new Map<string, LoadedFight>();
  /** approxBytes of each fight held, when it was remembered, and their sum. */
  private readonly sizes = new Map<string, number>();
  private totalBytes = 0;
  private readonly maxFights: number;
  private readonly maxBytes: number;
  /** Where this cache reads and saves snapshots (its creator closes it). */
  readonly snapshots?: SnapshotStore;
  private readonly writer?: SnapshotWriter;
  private readonly snapshotEvery: number;

  constructor(
    private readonly store: EventStore,
    options: FightCacheOptions = {},
  ) {
    this.snapshots = options.snapshots;
    this.snapshotEvery = options.snapshotEvery ?? SNAPSHOT_EVERY;
    this.maxFights = options.maxFights ?? CACHE_LIMIT;
    this.maxBytes = options.maxBytes ?? CACHE_BYTES;
    const onError =
      options.onSnapshotError ??
      ((e: unknown) =>
        console.warn(`fight snapshot not saved: ${e instanceof Error ? e.message : String(e)}`));
    if (this.snapshots)
      this.writer = new SnapshotWriter(this.snapshots, (id) => this.fights.get(id), onError);
  }

  get(fightId: string): LoadedFight | undefined {
    return this.fights.get(fightId);
  }

  /**
   * The view of a fight at exactly `seq` with `headHash` when this cache holds it or remembered it lately,
   * without building it twice (viewOf builds a fight's view once).
   */
  heldView(fightId: string, seq: number, headHash: string): Record<string, unknown> | undefined {
    const held = this.fights.get(fightId);
    const fight = held?.seq === seq ? held : this.recent.get(`${fightId}:${seq}`);
    return fight && fight.seq === seq && fight.headHash === headHash ? viewOf(fight) : undefined;
  }

  /** The cached fight, or the store's. */
  async load(fightId: string): Promise<LoadedFight> {
    return this.fights.get(fightId) ?? this.refresh(fightId);
  }

  /** The fight caught up with the store. */
  async refresh(fightId: string): Promise<LoadedFight> {
    const cached = this.fights.get(fightId);
    if (!cached) return this.coldLoad(fightId);
    const entries = (await this.store.readStream(fightStream(fightId), { from: BigInt(cached.seq) })).map(
      toLogEntry,
    );
    const fight = withCommands(evolveFight(cached, entries), entries);
    if (!fight) return this.reload(fightId);
    this.remember(fight);
    return fight;
  }

  /** A fight not held: its latest snapshot and the events after it, or else its whole stream folded. */
  private async coldLoad(fightId: string): Promise<LoadedFight> {
    const fight = (await this.fromSnapshot(fightId)) ?? (await this.foldWhole(fightId));
    fight.stateBytes = JSON.stringify(fight.state).length;
    this.remember(fight);
    return fight;
  }

  private async foldWhole(fightId: string): Promise<LoadedFight> {
    const stored = await this.store.readStream(fightStream(fightId));
    if (stored.length === 0) throw fightNotFound(fightId);
    return folded(fightId, stored[0], stored.map(toLogEntry));
  }

  /**
   * The fight from its snapshot and the events after it; undefined when there is none to trust (another
   * version's, corrupt, not on this stream's hash chain) or an undo after it takes back an event it holds.
   */
  private async fromSnapshot(fightId: string): Promise<LoadedFight | undefined> {
    if (!this.snapshots) return undefined;
    let base: LoadedFight | undefined;
    try {
      const row = await this.snapshots.load(fightId);
      base = row && decodeSnapshot(row, fightId);
    } catch {
      return undefined;
    }
    if (!base) return undefined;
    // From the snapshot's own event, to check that it lies on this stream's chain.
    const stored = await this.store.readStream(fightStream(fightId), { from: BigInt(base.seq - 1) });
    const at = stored[0];
    if (!at || at.revision !== BigInt(base.seq - 1) || (at.metadata as EventMetadata).hash !== base.headHash)
      return undefined;
    const entries = stored.slice(1).map(toLogEntry);
    try {
      const fight = withCommands(foldOnto(base, entries), entries);
      // A state the rule system cannot show is not one to serve.
      if (fight) fight.system.view(fight.state);
      return fight;
    } catch {
      return undefined;
    }
  }

  /** Resolves once the snapshots asked for so far are saved (tests, shutdown). */
  async flushSnapshots(): Promise<void> {
    await this.writer?.flush();
  }

  /** Stops saving snapshots; those not yet saved are dropped. */
  async close(): Promise<void> {
    await this.writer?.close();
  }

  /** Folds the whole stream again, honouring undo. */
  async reload(fightId: string): Promise<LoadedFight> {
    this.forget(fightId);
    return this.refresh(fightId);
  }

  /** A fight of the global log's, whichever instance wrote it: the next event is folded on, a gap or an undo drops the fight. */
  observe(entry: LogEntry): void {
    const cached = this.fights.get(entry.fightId);
    if (!cached || entry.seq <= cached.seq) return;
    const next =
      entry.seq === cached.seq + 1 ? withCommands(evolveFight(cached, [entry]), [entry]) : undefined;
    if (next) this.remember(next);
    else this.forget(entry.fightId);
  }

  /** Holds `fight` as the most recently used; the least recently used go past the count or the size. */
  remember(fight: LoadedFight): void {
    this.forget(fight.fightId);
    const bytes = approxBytes(fight);
    this.fights.set(fight.fightId, fight);
    this.sizes.set(fight.fightId, bytes);
    this.totalBytes += bytes;
    while (this.fights.size > 1 && (this.fights.size > this.maxFights || this.totalBytes > this.maxBytes))
      this.forget(this.fights.keys().next().value!);
    this.recent.set(`${fight.fightId}:${fight.seq}`, fight);
    if (this.recent.size > RECENT) this.recent.delete(this.recent.keys().next().value!);
    if (this.writer && fight.seq - (fight.snapshotSeq ?? 0) >= this.snapshotEvery)
      this.writer.request(fight.fightId);
  }

  forget(fightId: string): void {
    this.fights.delete(fightId);
    this.totalBytes -= this.sizes.get(fightId) ?? 0;
    this.sizes.delete(fightId);
  }

  clear(): void {
    this.fights.clear();
    this.recent.clear();
    this.sizes.clear();
    this.totalBytes = 0;
  }

  /** How many fights are held, and about how many bytes (approxBytes). */
  get held(): { fights: number; approxBytes: number } {
    return { fights: this.fights.size, approxBytes: this.totalBytes };
  }
}

function withCommands(fight: LoadedFight | undefined, entries: readonly LogEntry[]): LoadedFight | undefined {
  for (const e of fight ? entries : []) fight!.commands.add(e.commandId, e.seq);
  return fight;
}

/** A fight folded from its first event. */
function folded(fightId: string, first: StoredEvent, entries: readonly LogEntry[]): LoadedFight {
  const system = findSystem((first.data as { system: string }).system);
  if (!system) throw new Error(`fight ${fightId} uses an unknown system`);
  return withCommands({ ...foldLog(system, fightId, entries), commands: new CommandIndex() }, entries)!;
}
