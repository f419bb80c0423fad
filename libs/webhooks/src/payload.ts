import { createHash } from 'node:crypto';
import { FightEvent } from '@app/fights';

/** Stable per (endpoint, fight, seq): a consumer that runs a page twice inserts the same delivery once. */
export function webhookId(endpointId: string, fightId: string, seq: number): string {
  return `msg_${createHash('sha256').update(`${endpointId}\n${fightId}\n${seq}`).digest('base64url').slice(0, 27)}`;
}

type Json = Record<string, unknown>;
const list = (v: unknown): Json[] => (Array.isArray(v) ? (v as Json[]) : []);

/** What an overlay draws, the same for every system: who, how hurt, which Stage, which conditions, whose turn. */
export function overlayOf(view: Json): Json {
  return {
    system: view.system ?? null,
    name: view.name ?? null,
    status: view.status ?? null,
    round: view.round ?? null,
    activeCombatantId: view.activeCombatantId ?? null,
    combatants: list(view.combatants).map((c) => ({
      id: c.id,
      name: c.name,
      side: c.side ?? null,
      state: c.state ?? null,
      vitality: c.vitality ?? c.hp ?? null,
      maxVitality: c.maxVitality ?? c.maxHp ?? null,
      stage: c.stage ?? null,
      conditions: list(c.conditions),
      active: c.id === view.activeCombatantId,
    })),
  };
}

/** The delivery body, built once and stored: every attempt sends these exact bytes. */
export function fightEventPayload(e: FightEvent, view: Json | undefined): string {
  return JSON.stringify({
    type: e.type,
    timestamp: e.at,
    data: {
      fightId: e.fightId,
      seq: e.seq,
      event: {
        type: e.type,
        seq: e.seq,
        at: e.at,
        actor: e.actor,
        commandId: e.commandId,
        data: e.data,
        hash: e.hash,
      },
      overlay: view ? overlayOf(view) : null,
      view: view ?? null,
    },
  });
}

export function pingPayload(endpointId: string, at: Date): string {
  return JSON.stringify({ type: 'webhook.ping', timestamp: at.toISOString(), data: { endpointId } });
}
