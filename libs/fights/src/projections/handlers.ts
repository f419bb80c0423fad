import { StoredEvent } from '@app/event-store';
import { FightCore, findSystem } from '@app/rules';
import { ACTIONS_UNDONE, foldFight } from '@app/audit';
import { FIGHT_STREAM_PREFIX, FightEvent, toFightEvent } from '../fight-event';
import { ProjectionName, ReadTx } from './read-store';

interface Folded {
  state: FightCore;
  createdAt: string;
  tenantId: string;
}

type OnFight = (tx: ReadTx, fightId: string, folded: Folded, last: FightEvent) => Promise<void>;

export interface HandlerContext {
  /** The fight's whole log: an undo is folded from the start (audit folder). */
  readFight(fightId: string): Promise<FightEvent[]>;
}

/** Folds a page of the global log per fight, from each fight's stored fold, and hands each changed fight on. */
async function foldPage(tx: ReadTx, ctx: HandlerContext, projection: ProjectionName, page: StoredEvent[], onFight: OnFight): Promise<void> {
  const changed = new Map<string, { folded: Folded; last: FightEvent }>();
  const folds = new Map<string, { seq: number; folded: Folded } | null>();
  for (const stored of page) {
    if (!stored.stream.startsWith(FIGHT_STREAM_PREFIX)) continue;
    const e = toFightEvent(stored);
    if (!folds.has(e.fightId)) {
      const f = await tx.getFold(projection, e.fightId);
      folds.set(e.fightId, f ? { seq: f.seq, folded: f.state as Folded } : null);
    }
    let current = folds.get(e.fightId) ?? null;
    if (current && e.seq <= current.seq) continue;
    if (!current) {
      const system = e.type === 'FightStarted' ? findSystem(String(e.data.system)) : undefined;
      if (!system) continue;
      current = { seq: 0, folded: { state: system.start(e.fightId), createdAt: e.at, tenantId: String(stored.metadata.tenantId ?? '') } };
    }
    const system = findSystem(current.folded.state.system)!;
    let state: FightCore;
    try {
      state =
        e.type === ACTIONS_UNDONE
          ? foldFight(system, e.fightId, (await ctx.readFight(e.fightId)).filter((x) => x.seq <= e.seq))
          : system.evolve(current.folded.state, { type: e.type, data: e.data });
    } catch {
      // One fight a rule system cannot fold must not stop every projection: it stays at its last good seq.
      continue;
    }
    current = { seq: e.seq, folded: { ...current.folded, state } };
    folds.set(e.fightId, current);
    changed.set(e.fightId, { folded: current.folded, last: e });
  }
  for (const [fightId, { folded, last }] of changed) {
    await tx.putFold(projection, fightId, { seq: last.seq, headHash: last.hash, state: folded });
    try {
      await onFight(tx, fightId, folded, last);
    } catch {
      // As above: a view that cannot be built leaves the read model at its last good version.
    }
  }
}

export function fightView(folded: Folded, last: FightEvent): Record<string, unknown> {
  const system = findSystem(folded.state.system)!;
  return { ...system.view(folded.state), seq: last.seq, headHash: last.hash };
}

/** Each projection: how a page of the global log changes its read model. */
export const HANDLERS: Record<ProjectionName, (tx: ReadTx, ctx: HandlerContext, page: StoredEvent[]) => Promise<void>> = {
  'fight-views': (tx, ctx, page) =>
    foldPage(tx, ctx, 'fight-views', page, (t, fightId, folded, last) =>
      t.putFight({
        fightId,
        tenantId: folded.tenantId,
        system: folded.state.system,
        name: folded.state.name,
        status: folded.state.status,
        seq: last.seq,
        headHash: last.hash,
        createdAt: folded.createdAt,
        updatedAt: last.at,
        view: fightView(folded, last),
      }),
    ),
  combatants: (tx, ctx, page) =>
    foldPage(tx, ctx, 'combatants', page, (t, fightId, folded, last) => {
      const view = fightView(folded, last);
      const listed = Array.isArray(view.combatants) ? (view.combatants as Array<Record<string, unknown>>) : [];
      return t.replaceCombatants(
        fightId,
        listed.map((c) => ({ fightId, combatantId: String(c.id), system: folded.state.system, name: String(c.name), side: String(c.side ?? 'default'), summary: c })),
      );
    }),
};
