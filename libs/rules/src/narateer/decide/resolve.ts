import { settledBefore } from '../../core/handed-over';
import { RuleEvent } from '../../core/types';
import { DiceSource } from '../../dice/roll';
import { CurrentExchange, NarateerState } from '../state';
import {
  ev,
  ExchangeOutcome,
  ExchangeRespondedData,
  ExchangeResolvedData,
  RolledSide,
  WeaponFiredData,
  WoundCalculation,
} from '../events';
import { applyEdge, rollPool } from '../rolls';
import { opportunityFollowUps } from './reactors';
import { convertWounds, woundEvents } from './wounds';

/** narateer.txt: Combat Exchange Flow, steps 7–10 (N22: attacker's pool, responder's pool, then rerolls). */
export function resolveExchange(s: NarateerState, dice: DiceSource): RuleEvent[] {
  const x = s.exchange!;
  const r = x.response!;
  let a = rollPool(x.attackerId, x.skill, x.dice, x.edge, dice);
  let b = r.response === 'none' ? undefined : rollPool(r.combatantId, r.skill!, r.dice, r.edge!, dice);
  a = applyEdge(a, dice);
  if (b) b = applyEdge(b, dice);
  const resolved = judge(x, r, a, b);
  const events: RuleEvent[] = [ev('ExchangeResolved', resolved)];
  fired(s, x, x.attackerId, x.weaponId, events);
  if (r.response === 'clash') fired(s, x, r.combatantId, r.weaponId!, events);
  let open = false;
  if (resolved.outcome === 'hit' || resolved.outcome === 'counterHit') {
    // N61: a Continuation Check held for its roller holds the Opportunity Attacks still to offer after it (N24).
    const wounds = settledBefore(
      [...events],
      () =>
        woundEvents(
          s,
          exchangeWounds(s, x, resolved),
          resolved.outcome === 'hit' ? r.allocation : x.allocation,
          dice,
        ),
      x.opportunity ? { step: 'followUps' } : undefined,
    );
    open = wounds[0].type === 'WoundAllocationRequested';
    for (const e of wounds) events.push(e);
  }
  if (x.opportunity && !open) for (const e of opportunityFollowUps(s)) events.push(e);
  return events;
}

/** narateer.txt: Winning An Exchange; Full Guard wins ties, a Clash tie and 0 against target number 0 land nothing (N7, N30). */
function judge(
  x: CurrentExchange,
  r: ExchangeRespondedData,
  a: RolledSide,
  b: RolledSide | undefined,
): ExchangeResolvedData {
  const base: ExchangeResolvedData = {
    exchangeId: x.exchangeId,
    attackerId: x.attackerId,
    targetId: x.targetId,
    kind: x.kind,
    attacker: a,
    outcome: 'tie',
  };
  if (!b) {
    base.targetNumber = 0;
    return a.total > 0 ? won(base, 'hit', x.attackerId, a.total) : base;
  }
  base.responder = b;
  if (a.total > b.total) return won(base, 'hit', x.attackerId, a.total - b.total);
  if (r.response === 'fullGuard') return won(base, 'guarded', r.combatantId);
  if (b.total > a.total) return won(base, 'counterHit', r.combatantId, b.total - a.total);
  return base;
}

function won(
  base: ExchangeResolvedData,
  outcome: ExchangeOutcome,
  winnerId: string,
  hitMargin?: number,
): ExchangeResolvedData {
  base.outcome = outcome;
  base.winnerId = winnerId;
  if (hitMargin !== undefined) base.hitMargin = hitMargin;
  return base;
}

/** narateer.txt: Ranged Exchanges — firing expends ammunition and resolves Loading, win or lose (N27). */
function fired(
  s: NarateerState,
  x: CurrentExchange,
  combatantId: string,
  weaponId: string,
  events: RuleEvent[],
): void {
  if (x.kind !== 'ranged') return;
  const c = s.combatants[combatantId];
  const weapon = c.sheet.weapons.find((w) => w.id === weaponId)!;
  const ws = c.weapons[weaponId];
  const data: WeaponFiredData = {
    combatantId,
    weaponId,
    exchangeId: x.exchangeId,
    loaded: !weapon.needsLoading && ws.loaded,
  };
  if (ws.ammunition !== undefined) data.ammunition = ws.ammunition - 1;
  events.push(ev('WeaponFired', data));
}

/** narateer.txt: Calculating Wounds — Hit Margin, Strike Rating, Protection Rating, Wound Margin. */
function exchangeWounds(
  s: NarateerState,
  x: CurrentExchange,
  resolved: ExchangeResolvedData,
): WoundCalculation {
  const hit = resolved.outcome === 'hit';
  const r = x.response!;
  const winner = s.combatants[hit ? x.attackerId : r.combatantId];
  const loserId = hit ? x.targetId : x.attackerId;
  const weaponId = hit ? x.weaponId : r.weaponId!;
  const weapon = winner.sheet.weapons.find((w) => w.id === weaponId)!;
  const damageVital = hit ? x.damageVital : r.damageVital!;
  // N44: the weapon's normal Strike Rating first, then the stated modifier; neither rating goes below 0.
  const { strikeModifier, protectionModifier } = hit ? x : r;
  const strikeRating = Math.max(
    0,
    weapon.weaponDamage +
      Math.min(winner.sheet.vitals[damageVital], weapon.damageVitalCap) +
      (strikeModifier ?? 0),
  );
  const protectionRating = Math.max(0, s.combatants[loserId].sheet.soak + (protectionModifier ?? 0));
  const woundMargin = resolved.hitMargin! + strikeRating - protectionRating;
  const calc: WoundCalculation = {
    combatantId: loserId,
    wounds: convertWounds(woundMargin),
    harm: hit ? x.harm : r.harm!,
    exchangeId: x.exchangeId,
    sourceId: winner.id,
    weaponId,
    damageVital,
    hitMargin: resolved.hitMargin,
    strikeRating,
    protectionRating,
    woundMargin,
  };
  if (strikeModifier !== undefined) calc.strikeModifier = strikeModifier;
  if (protectionModifier !== undefined) calc.protectionModifier = protectionModifier;
  return calc;
}
