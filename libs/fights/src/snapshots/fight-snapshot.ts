import { createHash } from 'node:crypto';
import { canonicalJson, FOLD_VERSION } from '@app/fight-log';
import { findSystem, RuleSystem } from '@app/rules';
import { CommandIndex } from '../command-index';
import type { LoadedFight } from '../fight-cache';
import { StoredPart, StoredSnapshot } from './snapshot-store';

/** Bumped when the payload's shape changes. */
export const SNAPSHOT_SCHEMA = 3;

/**
 * What a snapshot's payload holds: the fold at `seq` and the last command's id. Never the seed. The command
 * index up to `seq` is in the snapshot's parts, the fight's first seq to its `seq` one part after another.
 */
interface SnapshotBody {
  fightId: string;
  system: string;
  seq: number;
  headHash: string;
  drawsUsed: number;
  state: Record<string, unknown>;
  lastCommand: string | null;
}

const digests = new WeakMap<RuleSystem, string>();

/**
 * The version a snapshot of `system`'s fights is made and read under: the payload schema, the fold version
 * (libs/fight-log FOLD_VERSION), the system's id and a digest of its tables, so a build whose rules or tables
 * differ never reads another's snapshot as its own.
 */
export function snapshotVersion(system: RuleSystem): string {
  let digest = digests.get(system);
  if (digest === undefined) {
    digest = createHash('sha256')
      .update(canonicalJson(system.data) ?? '')
      .digest('hex')
      .slice(0, 16);
    digests.set(system, digest);
  }
  return `s${SNAPSHOT_SCHEMA}.f${FOLD_VERSION}.${system.id}.${digest}`;
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** `text` with its sha256 in hex and a space before it: a snapshot's payload, each of its parts. */
const sealed = (text: string): string => `${sha256(text)} ${text}`;

/** The text `sealed` sealed, or undefined when the checksum is not its own (or `sealed` is no such text). */
function unsealed(sealed: unknown): string | undefined {
  if (typeof sealed !== 'string' || sealed.charAt(64) !== ' ') return undefined;
  const text = sealed.slice(65);
  return sealed.slice(0, 64) === sha256(text) ? text : undefined;
}

/**
 * The snapshot of a fight at its seq: its payload is a checksum, a space, then the body as JSON; its one part
 * the command index's entries since the snapshot the fight was loaded from or last saved (from its first
 * event if none), a checksum, a space, then the entries.
 */
export function encodeSnapshot(fight: LoadedFight): StoredSnapshot {
  const body: SnapshotBody = {
    fightId: fight.fightId,
    system: fight.system.id,
    seq: fight.seq,
    headHash: fight.headHash,
    drawsUsed: fight.drawsUsed,
    state: fight.state as unknown as Record<string, unknown>,
    lastCommand: fight.commands.lastCommand,
  };
  const json = JSON.stringify(body);
  const fromSeq = fight.snapshotSeq ?? 0;
  const entries = fight.commands.entriesAfter(fromSeq);
  return {
    fightId: fight.fightId,
    version: snapshotVersion(fight.system),
    seq: fight.seq,
    payload: sealed(json),
    parts: [{ fromSeq, toSeq: fight.seq, entries: sealed(entries) }],
  };
}

/** The command index from the parts that chain from the fight's start to `seq`; undefined if they do not. */
function commandsOf(parts: readonly StoredPart[], seq: number, last: unknown): CommandIndex | undefined {
  if (last !== null && typeof last !== 'string') return undefined;
  const from = new Map(parts.map((p) => [p.fromSeq, p]));
  const chain: StoredPart[] = [];
  for (let at = 0; at < seq;) {
    const part = from.get(at);
    const entries = part && unsealed(part.entries);
    if (!part || !Number.isSafeInteger(part.toSeq) || part.toSeq <= at || entries === undefined)
      return undefined;
    chain.push({ ...part, entries });
    at = part.toSeq;
  }
  return CommandIndex.fromParts(chain, last, seq);
}

/**
 * The fight a snapshot holds; undefined for anything not to be trusted: another version's, another fight's, a
 * payload whose checksum or shape is wrong, parts that do not chain from the fight's start to the snapshot's
 * seq or whose checksum is wrong. Never throws.
 */
export function decodeSnapshot(row: StoredSnapshot, fightId: string): LoadedFight | undefined {
  try {
    const json = unsealed(row.payload);
    if (row.fightId !== fightId || json === undefined) return undefined;
    const body = JSON.parse(json) as Partial<SnapshotBody>;
    const system = typeof body.system === 'string' ? findSystem(body.system) : undefined;
    if (!system || row.version !== snapshotVersion(system)) return undefined;
    const { seq, headHash, drawsUsed, state } = body;
    if (body.fightId !== fightId || !Number.isSafeInteger(seq) || seq! < 1 || seq !== row.seq)
      return undefined;
    if (typeof headHash !== 'string' || !Number.isSafeInteger(drawsUsed)) return undefined;
    if (typeof state !== 'object' || state === null || Array.isArray(state)) return undefined;
    const commands = commandsOf(row.parts, seq, body.lastCommand);
    if (!commands) return undefined;
    return {
      system,
      fightId,
      state: state as unknown as LoadedFight['state'],
      seq,
      headHash,
      drawsUsed: drawsUsed!,
      commands,
      snapshotSeq: seq,
    };
  } catch {
    return undefined;
  }
}
