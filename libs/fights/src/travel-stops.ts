import type { FightCore, RuleSystem } from '@app/rules';

/** A fight's state right after its event `seq`, as a fold from its first event leaves it. */
export interface TravelStop {
  system: RuleSystem;
  seq: number;
  state: FightCore;
}

/** Events between two stops: a time-travel view folds at most this many. */
export const TRAVEL_EVERY = 250;
/** Stops kept in all, over every fight: about a fight's cached state each (tens of KiB at most). */
const TRAVEL_KEEP = 400;

/**
 * Folds that time travel (FightReads.viewAt) made on its way, kept at every `every`th event of the fights
 * asked about lately, so that the next view of the same fight starts from the last stop at or before the
 * seq it asks for. States are never changed once made (evolve returns a new one), so a stop can be shared.
 * At most `keep` stops in all: the fights asked about longest ago lose theirs first.
 */
export class TravelStops {
  /** In the order fights were last asked about, the latest last; each fight's stops by seq. */
  private readonly byFight = new Map<string, Map<number, TravelStop>>();
  private count = 0;

  constructor(
    readonly every = TRAVEL_EVERY,
    private readonly keepAtMost = TRAVEL_KEEP,
  ) {}

  /** The latest stop of the fight at or before `at`. */
  before(fightId: string, at: number): TravelStop | undefined {
    const stops = this.byFight.get(fightId);
    if (!stops) return undefined;
    this.byFight.delete(fightId);
    this.byFight.set(fightId, stops);
    return stops.get(Math.floor(at / this.every) * this.every) ?? latestBefore(stops, at);
  }

  keep(fightId: string, stop: TravelStop): void {
    let stops = this.byFight.get(fightId);
    if (!stops) this.byFight.set(fightId, (stops = new Map<number, TravelStop>()));
    if (stops.has(stop.seq)) return;
    stops.set(stop.seq, stop);
    this.count++;
    for (const [id, held] of this.byFight) {
      if (this.count <= this.keepAtMost || id === fightId) break;
      this.count -= held.size;
      this.byFight.delete(id);
    }
  }
}

function latestBefore(stops: ReadonlyMap<number, TravelStop>, at: number): TravelStop | undefined {
  let best: TravelStop | undefined;
  for (const stop of stops.values()) if (stop.seq <= at && (!best || stop.seq > best.seq)) best = stop;
  return best;
}
