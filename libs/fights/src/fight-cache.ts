import { EventStore, StoredEvent } from '@app/event-store';
import { evolveFight, FoldedFight, foldLog, fightStream, LogEntry, toLogEntry } from '@app/fight-log';
import { findSystem } from '@app/rules';
import { CommandIndex } from './command-index';
import { fightNotFound } from './errors';

/** A fight folded from its stream (libs/fight-log), with what this instance keeps beside the fold. */
export interface LoadedFight extends FoldedFight {
  /** hash of each commandId → the first seq of the commands with that hash (command-index.ts: a few bytes per command). */
  commands: CommandIndex;
  /** The dice seed, once the vault has been read for it. */
  seed?: string;
}

export interface FightViewResult {
  fightId: string;
  seq: number;
  view: Record<string, unknown>;
}

/** The view a fight shows at its head: the rule system's view with the seq and head hash. */
export function viewOf(fight: FoldedFight): Record<string, unknown> {
  return { ...fight.system.view(fight.state), seq: fight.seq, headHash: fight.headHash };
}

export function viewResult(fight: FoldedFight): FightViewResult {
  return { fightId: fight.fightId, seq: fight.seq, view: viewOf(fight) };
}

const CACHE_LIMIT = 5000;

/**
 * The folded fights this instance holds, the least recently used dropped past the limit; each caught up from
 * the store on demand (another instance may have written), and folded again from its whole stream after an undo.
 */
export class FightCache {
  private readonly fights = new Map<string, LoadedFight>();

  constructor(private readonly store: EventStore) {}

  get(fightId: string): LoadedFight | undefined {
    return this.fights.get(fightId);
  }

  /** The cached fight, or the store's. */
  async load(fightId: string): Promise<LoadedFight> {
    return this.fights.get(fightId) ?? this.refresh(fightId);
  }

  /** The fight caught up with the store. */
  async refresh(fightId: string): Promise<LoadedFight> {
    const cached = this.fights.get(fightId);
    const stored = await this.store.readStream(fightStream(fightId), { from: BigInt(cached?.seq ?? 0) });
    if (!cached && stored.length === 0) throw fightNotFound(fightId);
    const entries = stored.map(toLogEntry);
    const fight = cached
      ? withCommands(evolveFight(cached, entries), entries)
      : folded(fightId, stored[0], entries);
    if (!fight) return this.reload(fightId);
    this.remember(fight);
    return fight;
  }

  /** Folds the whole stream again, honouring undo. */
  async reload(fightId: string): Promise<LoadedFight> {
    this.fights.delete(fightId);
    return this.refresh(fightId);
  }

  /** A fight of the global log's, whichever instance wrote it: the next event is folded on, a gap or an undo drops the fight. */
  observe(entry: LogEntry): void {
    const cached = this.fights.get(entry.fightId);
    if (!cached || entry.seq <= cached.seq) return;
    const next =
      entry.seq === cached.seq + 1 ? withCommands(evolveFight(cached, [entry]), [entry]) : undefined;
    if (next) this.remember(next);
    else this.fights.delete(entry.fightId);
  }

  remember(fight: LoadedFight): void {
    this.fights.delete(fight.fightId);
    this.fights.set(fight.fightId, fight);
    if (this.fights.size > CACHE_LIMIT) this.fights.delete(this.fights.keys().next().value!);
  }

  forget(fightId: string): void {
    this.fights.delete(fightId);
  }

  clear(): void {
    this.fights.clear();
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
