import { FightEvent } from './fight-event';

export interface FightSummary {
  fightId: string;
  system: string;
  name: string;
  status: string;
  round: number;
  combatants: number;
  seq: number;
  createdAt: string;
  updatedAt: string;
}

export interface FightListQuery {
  system?: string;
  status?: string;
  limit: number;
  offset: number;
}

/**
 * The fight list, folded from the global log (each instance folds it itself, so
 * several instances agree). Applying an event twice is harmless: it is keyed by seq.
 */
export class FightList {
  private readonly fights = new Map<string, FightSummary>();

  apply(e: FightEvent): void {
    const f = this.fights.get(e.fightId);
    if (f && e.seq <= f.seq) return;
    if (!f && e.type !== 'FightStarted') return;
    const d = e.data as Record<string, any>;
    const next: FightSummary = f
      ? { ...f, seq: e.seq, updatedAt: e.at }
      : { fightId: e.fightId, system: d.system, name: d.name, status: 'setup', round: 0, combatants: 0, seq: e.seq, createdAt: e.at, updatedAt: e.at };
    switch (e.type) {
      case 'CombatantJoined': next.combatants++; break;
      case 'CombatantRemoved': next.combatants--; break;
      case 'RoundStarted': next.status = 'active'; next.round = d.round; break;
      case 'FightEnded': next.status = 'ended'; break;
    }
    this.fights.set(e.fightId, next);
  }

  page(q: FightListQuery): { items: FightSummary[]; total: number; limit: number; offset: number } {
    const all = [...this.fights.values()]
      .filter((f) => (!q.system || f.system === q.system) && (!q.status || f.status === q.status))
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : a.fightId < b.fightId ? 1 : -1));
    return { items: all.slice(q.offset, q.offset + q.limit), total: all.length, limit: q.limit, offset: q.offset };
  }
}
