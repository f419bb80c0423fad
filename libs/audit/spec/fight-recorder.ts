import {
  Decision,
  decideCommand,
  FightFolder,
  GENESIS_HASH,
  LogEntry,
  sealEvents,
  UndoStack,
} from '@app/fight-log';
import { FightCore, narateer, RuleCommand, RuleSystem, seedCommitment } from '@app/rules';
import { buildFightLog, FightLog } from '@app/audit';

export const FAIR_SEED = '5eed'.repeat(16);

export interface RecorderOptions {
  fightId?: string;
  mode?: 'fair' | 'seeded' | 'manual';
  seed?: string;
  clientSeed?: string;
}

/**
 * Writes a fight's log with the service's command core (libs/fight-log: decide with the fight's dice,
 * seal the events onto the hash chain, fold with undo), without a store: a fixed clock and
 * commandIds `cmd-1`, `cmd-2`… make its logs the same on every run.
 */
export class FightRecorder {
  readonly entries: LogEntry[] = [];
  readonly fightId: string;
  readonly seed: string;
  readonly mode: 'fair' | 'seeded' | 'manual';
  private readonly clientSeed?: string;
  private readonly folder: FightFolder;
  private readonly undo = new UndoStack();
  private drawsUsed = 0;
  private headHash = GENESIS_HASH;
  private commands = 0;

  constructor(
    options: RecorderOptions = {},
    readonly system: RuleSystem<FightCore> = narateer,
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

  start(
    input: { name?: string; combatants?: unknown[]; options?: Record<string, unknown> } = {},
  ): LogEntry[] {
    const command: RuleCommand = {
      type: 'StartFight',
      name: input.name,
      dice: { mode: this.mode, commitment: seedCommitment(this.seed), clientSeed: this.clientSeed },
      combatants: input.combatants ?? [],
      options: input.options,
    };
    return this.run(command);
  }

  run(command: RuleCommand, actor = 'gm'): LogEntry[] {
    const fight = {
      system: this.system,
      fightId: this.fightId,
      state: this.state,
      seq: this.entries.length,
      drawsUsed: this.drawsUsed,
    };
    const decision = decideCommand(fight, command, { seed: this.seed, undo: this.undo });
    if (decision.events.length === 0) return [];
    return this.append(decision, command, actor);
  }

  log(): FightLog {
    return buildFightLog(this.entries);
  }

  private append(decision: Decision, command: RuleCommand, actor: string): LogEntry[] {
    const commandId = `cmd-${++this.commands}`;
    const at = new Date(Date.UTC(2025, 0, 1, 20, 0, this.commands)).toISOString();
    const out = sealEvents(
      { fightId: this.fightId, seq: this.entries.length, headHash: this.headHash },
      decision,
      { commandId, actor, at, command },
    );
    for (const e of out) {
      this.entries.push(e);
      this.folder.apply(e);
    }
    this.undo.push(out);
    this.headHash = out[out.length - 1].hash;
    this.drawsUsed = decision.drawsUsed;
    return out;
  }
}

const sword = {
  id: 'sword',
  name: 'Arming sword',
  kind: 'melee',
  weight: 'light',
  baseAttackCost: 1,
  weaponDamage: 2,
  damageVitalCap: 3,
  harm: 'Physical (Slashing)',
};

export const fighter = (id: string, agility = 2) => ({
  id,
  name: id,
  side: id,
  sheet: {
    vitals: { strength: 2, agility, resilience: 2 },
    skills: { melee: 2, ranged: 1, acrobatics: 1 },
    maxVitality: 60,
    maxAD: 5,
    maxMD: 1,
    weapons: [sword],
    armour: { soak: 1 },
  },
});

export const attack = (
  attackerId: string,
  targetId: string,
  extra: Record<string, unknown> = {},
): RuleCommand => ({
  type: 'DeclareExchange',
  attackerId,
  targetId,
  kind: 'melee',
  weaponId: 'sword',
  boost: 1,
  ...extra,
});

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
