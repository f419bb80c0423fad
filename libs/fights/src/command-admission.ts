import { checkCommand, findSystem, RuleCommand, seedCommitment } from '@app/rules';
import { AppError, expectedSeqMismatch } from './errors';
import { LoadedFight } from './fight-cache';
import { SeedVault } from './seed-vault';

/** What a command must pass before the rules decide it: the contract, the caller's expected seq, a player's scope. */

export interface CreateFightInput {
  system: string;
  /** Idempotency key of the creation: the same one again (same tenant) answers the fight it created. */
  commandId?: string;
  name?: string;
  dice?: { mode?: 'fair' | 'seeded' | 'manual'; seed?: string; clientSeed?: string; drawKey?: string };
  combatants?: unknown[];
  options?: Record<string, unknown>;
}

/**
 * Where a transport declared a command to be of one system (GraphQL's `narateerCommand` & co.). A symbol key:
 * no JSON body holds one, so REST's `{ type, ...fields }` cannot declare a system, and it never reaches the
 * command's own fields.
 */
export const DECLARED_FOR = Symbol('declaredFor');

export interface DeclaredSystem {
  system: string;
  /** What the command was sent with (`arcanaBeastCommand`), for the refusal to name. */
  via: string;
}

export interface CommandInput {
  type: string;
  commandId?: string;
  expectedSeq?: number;
  [DECLARED_FOR]?: DeclaredSystem;
  [field: string]: unknown;
}

/** Who sends a command: recorded as the events' actor; `scope` lists the combatants a player may act for. */
export interface Actor {
  name: string;
  scope: 'all' | string[];
  tenantId?: string;
  /** Carried into the events' metadata, to follow one request from the logs to the log. */
  requestId?: string;
}

export const GM_ACTOR: Actor = { name: 'gm', scope: 'all' };

/**
 * POST /fights: the rule system, the seed and StartFight, or a 422 naming the field. `sealed` is the seed an
 * earlier attempt of the same creation sealed: fair and manual dice keep it, so the retry's StartFight is the
 * first attempt's (its commitment included).
 */
export function startCommand(input: CreateFightInput, sealed?: string) {
  const system = findSystem(input.system);
  if (!system) throw new AppError(422, 'UNKNOWN_SYSTEM', `no rule system ${input.system}`, 'system');
  const mode = input.dice?.mode ?? 'fair';
  if (mode === 'seeded' && !input.dice?.seed)
    throw new AppError(422, 'DICE_SEED_REQUIRED', 'RULINGS.md C2: seeded dice need dice.seed', 'dice.seed');
  if (mode !== 'seeded' && input.dice?.seed !== undefined)
    throw new AppError(
      422,
      'DICE_SEED_NOT_ALLOWED',
      'RULINGS.md C2: only seeded dice take a seed from the caller',
      'dice.seed',
    );
  const drawKey = input.dice?.drawKey;
  if (drawKey !== undefined && mode !== 'seeded')
    throw new AppError(
      422,
      'DICE_DRAW_KEY_NOT_ALLOWED',
      `docs/rulings.md C14: only seeded dice take a drawKey; ${mode} dice cannot be reproduced in another fight`,
      'dice.drawKey',
    );
  const seed = mode === 'seeded' ? input.dice!.seed! : (sealed ?? SeedVault.newSeed());
  const command: RuleCommand = {
    type: 'StartFight',
    name: input.name,
    dice: {
      mode,
      commitment: seedCommitment(seed),
      clientSeed: input.dice?.clientSeed,
      ...(drawKey !== undefined && { drawKey }),
    },
    combatants: input.combatants ?? [],
    options: input.options,
  };
  checkCommand(system.contract.commands, command);
  return { system, seed, command };
}

/**
 * A command declared for one system is refused by a fight of another, before its commandId is looked up: the
 * fight's system never changes, so the same request sent again gets the same answer, replay or not.
 */
export function admitSystem(fight: LoadedFight, declared: DeclaredSystem | undefined): void {
  const system = fight.system.id;
  if (declared && declared.system !== system)
    throw new AppError(
      422,
      'WRONG_SYSTEM',
      `fight ${fight.fightId} is a ${system} fight: send its commands with ${system}'s mutation, not ${declared.via}`,
      'fightId',
    );
}

/**
 * The edge's checks before the rules decide, after admitSystem and a replay of a known commandId: the contract
 * (unknown fields, wrong JSON types and out-of-range values are refused, naming the field), the seq the caller
 * expects, and what a player may send.
 */
export function admit(
  fight: LoadedFight,
  sent: Omit<CommandInput, 'commandId' | 'expectedSeq'>,
  expectedSeq: number | undefined,
  actor: Actor,
): RuleCommand {
  const command = sent as RuleCommand;
  checkCommand(fight.system.contract.commands, command);
  if (expectedSeq !== undefined && expectedSeq !== fight.seq)
    throw expectedSeqMismatch(expectedSeq, fight.seq);
  if (actor.scope !== 'all') assertPlayerMayAct(fight, command, actor.scope);
  return command;
}

/**
 * C3, C12: a player acts only for their own combatants, answers only their own decisions and sets
 * none of the GM's fields.
 */
function assertPlayerMayAct(fight: LoadedFight, command: RuleCommand, scope: string[]): void {
  const acting = fight.system.actorOf?.(fight.state, command);
  if (!acting) throw new AppError(403, 'GM_ONLY', `only the GM may send ${command.type}`, 'type');
  if (!scope.includes(acting.combatantId))
    throw new AppError(403, 'NOT_YOUR_COMBATANT', notYours(command, acting), acting.field);
  const gmField = acting.gmOnly?.[0];
  if (gmField)
    throw new AppError(
      403,
      'GM_ONLY_FIELD',
      `ruling C12: only the GM may set ${gmField} on ${command.type}`,
      gmField,
    );
  const other = acting.speaksFor?.find((o) => !scope.includes(o.combatantId));
  if (other)
    throw new AppError(
      403,
      'NOT_YOUR_COMBATANT',
      `ruling C12: ${other.field} answers for ${other.combatantId || 'another combatant'}, and this token does not act for it`,
      other.field,
    );
}

/**
 * C11: a combatant another plays (a bound beast, played by its Binder's player) is named with who acts for it, so a
 * client holding a token for the beast alone learns which combatant its token must hold.
 */
function notYours(command: RuleCommand, acting: { combatantId: string; field: string }): string {
  const named = (command as Record<string, unknown>)[acting.field];
  return typeof named === 'string' && named !== acting.combatantId
    ? `ruling C11: ${named} is played by ${acting.combatantId}'s player, and this token does not act for ${acting.combatantId}: use a token that holds ${acting.combatantId}`
    : `this token does not act for ${acting.combatantId}`;
}
