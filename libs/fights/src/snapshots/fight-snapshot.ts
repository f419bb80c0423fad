import { createHash } from 'node:crypto';
import { canonicalJson, FOLD_VERSION } from '@app/fight-log';
import { findSystem, RuleSystem } from '@app/rules';
import { CommandIndex, CommandIndexData } from '../command-index';
import type { LoadedFight } from '../fight-cache';
import { StoredSnapshot } from './snapshot-store';

/** Bumped when the payload's shape changes. */
export const SNAPSHOT_SCHEMA = 2;

/** What a snapshot holds: the fold at `seq` and the command index up to it. Never the seed. */
interface SnapshotBody {
  fightId: string;
  system: string;
  seq: number;
  headHash: string;
  drawsUsed: number;
  state: Record<string, unknown>;
  commands: CommandIndexData;
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

/** The snapshot of a fight at its seq: its payload is a checksum, a space, then the body as JSON. */
export function encodeSnapshot(fight: LoadedFight): StoredSnapshot {
  const body: SnapshotBody = {
    fightId: fight.fightId,
    system: fight.system.id,
    seq: fight.seq,
    headHash: fight.headHash,
    drawsUsed: fight.drawsUsed,
    state: fight.state as unknown as Record<string, unknown>,
    commands: fight.commands.toData(),
  };
  const json = JSON.stringify(body);
  return {
    fightId: fight.fightId,
    version: snapshotVersion(fight.system),
    seq: fight.seq,
    payload: `${sha256(json)} ${json}`,
  };
}

/**
 * The fight a snapshot holds; undefined for anything not to be trusted: another version's, another fight's, a
 * payload whose checksum or shape is wrong. Never throws.
 */
export function decodeSnapshot(row: StoredSnapshot, fightId: string): LoadedFight | undefined {
  try {
    if (row.fightId !== fightId || typeof row.payload !== 'string') return undefined;
    const space = row.payload.indexOf(' ');
    const json = row.payload.slice(space + 1);
    if (space !== 64 || row.payload.slice(0, space) !== sha256(json)) return undefined;
    const body = JSON.parse(json) as Partial<SnapshotBody>;
    const system = typeof body.system === 'string' ? findSystem(body.system) : undefined;
    if (!system || row.version !== snapshotVersion(system)) return undefined;
    const { seq, headHash, drawsUsed, state } = body;
    if (body.fightId !== fightId || !Number.isSafeInteger(seq) || seq! < 1 || seq !== row.seq)
      return undefined;
    if (typeof headHash !== 'string' || !Number.isSafeInteger(drawsUsed)) return undefined;
    if (typeof state !== 'object' || state === null || Array.isArray(state)) return undefined;
    const commands = CommandIndex.fromData(body.commands);
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
