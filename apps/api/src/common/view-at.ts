import { FightService, seqOutOfRange } from '@app/fights';

/**
 * `?at=` reads the log itself, so a `?minSeq=` beside it has nothing to wait for, but it still names a seq the
 * fight must have reached: one past the fight's last seq is 422 SEQ_OUT_OF_RANGE (field minSeq), as it is
 * without `at`, not silently dropped. REST's `?at=&minSeq=` and GraphQL's `fight(at:, minSeq:)` alike.
 */
export async function viewAtHeld(
  fights: FightService,
  id: string,
  q: { at: number; minSeq?: number },
): ReturnType<FightService['viewAt']> {
  const view = await fights.viewAt(id, q.at);
  if (q.minSeq === undefined || q.minSeq <= q.at) return view;
  const head = await fights.view(id);
  if (head.seq < q.minSeq) throw seqOutOfRange(head.seq, 'minSeq');
  return view;
}
