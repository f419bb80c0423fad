import { eventHash, GENESIS_HASH } from '@app/fights/hash-chain';
import { DiceSource, FightCore, ManualDice, narateer, RuleCommand, RuleEvent, RuleSystem, RuleViolation, SeededDice, seedCommitment } from '@app/rules';
import { ACTIONS_UNDONE, buildFightLog, FightFolder, FightLog, LogEntry, planUndo, UNDO_COMMAND } from '@app/audit';

export const FAIR_SEED = '5eed'.repeat(16);

export interface RecorderOptions {
  fightId?: string;
  mode?: 'fair' | 'seeded' | 'manual';
  seed?: string;
  clientSeed?: string;
}

/**
 * Writes a fight's log the way FightService does (decide, dice per mode, drawsUsed, hash chain,
 * command on the first event, revealedSeed injected into EndFight but not recorded), plus
 * UndoCommands as the fight layer is to handle it.
 */
export class FightRecorder {
  readonly entries: LogEntry[] = [];
  readonly fightId: string;
  readonly seed: string;
  readonly mode: 'fair' | 'seeded' | 'manual';
  private readonly clientSeed?: string;
  private readonly folder: FightFolder;
  private drawsUsed = 0;
  private headHash = GENESIS_HASH;
  private commands = 0;

  constructor(
    options: RecorderOptions = {},
    readonly system: RuleSystem<FightCore> = narateer as unknown as RuleSystem<FightCore>,
  ) {
    this.fightId = options.fightId ?? 'fight-1';
    this.mode = options.mode ?? 'fair';
    this.seed = options.seed ?? FAIR_SEED;
    this.folder = new FightFolder(this.system, this.fightId);
    this.clientSeed = options.clientSeed;
  }

  get state(): FightCore {
    return this.folder.state;
  }

  get draws(): number {
    return this.drawsUsed;
  }

  start(input: { name?: string; combatants?: unknown[]; options?: Record<string, unknown> } = {}): LogEntry[] {
    const command: RuleCommand = { type: 'StartFight', name: input.name, dice: { mode: this.mode, commitment: seedCommitment(this.seed), clientSeed: this.clientSeed }, combatants: input.combatants ?? [], options: input.options };
    const events = this.system.decide(this.system.start(this.fightId), command, new ManualDice({}));
    return this.append(events, command, 0, 'gm');
  }

  run(input: RuleCommand, actor = 'gm'): LogEntry[] {
    const command = { ...input };
    if (command.type === UNDO_COMMAND) return this.append([{ type: ACTIONS_UNDONE, data: planUndo(this.entries, command.count) }], command, this.drawsUsed, actor);
    if (command.type === 'EndFight') command.revealedSeed = this.seed;
    const dice = this.diceFor(command);
    const events = this.system.decide(this.folder.state, command, dice);
    if (dice instanceof ManualDice) dice.assertAllUsed();
    if (events.length === 0) return [];
    return this.append(events, command, dice instanceof SeededDice ? dice.drawsUsed : this.drawsUsed, actor);
  }

  log(): FightLog {
    return buildFightLog(this.entries);
  }

  private diceFor(command: RuleCommand): DiceSource {
    if (this.mode === 'manual') return new ManualDice(command as { dice?: number[] });
    for (const field of ['dice', 'rerollFaces', 'followUpFaces']) {
      if (command[field] !== undefined) throw new RuleViolation('DICE_NOT_MANUAL', 'faces cannot be supplied', field);
    }
    return new SeededDice({ seed: this.seed, fightId: this.fightId, clientSeed: this.state.dice.clientSeed, drawsUsed: this.drawsUsed });
  }

  private append(events: RuleEvent[], command: RuleCommand, drawsUsed: number, actor: string): LogEntry[] {
    const commandId = `cmd-${++this.commands}`;
    const at = new Date(Date.UTC(2025, 0, 1, 20, 0, this.commands)).toISOString();
    const { revealedSeed: _seed, ...recordable } = command;
    const out = events.map((e, i) => {
      const event = { fightId: this.fightId, seq: this.entries.length + i + 1, type: e.type, v: 1, at, actor, commandId, data: e.data };
      this.headHash = eventHash(this.headHash, event);
      const entry: LogEntry = { ...event, hash: this.headHash, drawsUsed };
      if (i === 0) entry.command = recordable;
      return entry;
    });
    for (const e of out) {
      this.entries.push(e);
      this.folder.apply(e);
    }
    this.drawsUsed = drawsUsed;
    return out;
  }
}

const sword = { id: 'sword', name: 'Arming sword', kind: 'melee', weight: 'light', baseAttackCost: 1, weaponDamage: 2, damageVitalCap: 3, harm: 'Physical (Slashing)' };

export const fighter = (id: string, agility = 2) => ({
  id,
  name: id,
  side: id,
  sheet: { vitals: { strength: 2, agility, resilience: 2 }, skills: { melee: 2, ranged: 1, acrobatics: 1 }, maxVitality: 60, maxAD: 5, maxMD: 1, weapons: [sword], armour: { soak: 1 } },
});

export const attack = (attackerId: string, targetId: string, extra: Record<string, unknown> = {}): RuleCommand => ({ type: 'DeclareExchange', attackerId, targetId, kind: 'melee', weaponId: 'sword', boost: 1, ...extra });

/** Two fighters, initiative rolled, one round with exchanges, notes, and (optionally) the end. */
export function duel(mode: 'fair' | 'manual', end = true): FightRecorder {
  const f = new FightRecorder({ mode, clientSeed: 'table-7' });
  const manual = (faces: number[]) => (mode === 'manual' ? { dice: faces } : {});
  f.start({ name: 'Duel', combatants: [fighter('mira', 3), fighter('orin', 2)] });
  f.run({ type: 'RollInitiative', ...manual([6, 5, 4, 1, 2]) });
  if (f.state.pending) f.run({ type: 'SetInitiative', order: ['mira', 'orin'] });
  f.run({ type: 'StartRound' });
  const [first, second] = f.state.order;
  f.run({ type: 'StartActivation' });
  f.run(attack(first, second, { response: { response: 'clash', boost: 0 }, ...manual([6, 4, 2]) }));
  f.run({ type: 'AddNote', text: 'the crowd roars', combatantId: first });
  f.run({ type: 'EndActivation' });
  f.run({ type: 'StartActivation' });
  f.run(attack(second, first, { boost: 0 }));
  f.run({ type: 'RespondToExchange', combatantId: first, response: 'clash', boost: 1, ...manual([5, 3, 6]) });
  f.run({ type: 'EndActivation' });
  if (end) f.run({ type: 'EndFight', reason: 'time', winnerSide: first });
  return f;
}
