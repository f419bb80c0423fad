import { createSourceEventStream, ExecutionArgs, ExecutionResult, subscribe } from 'graphql';
import { Principal } from '@app/fights';
import { FanoutSubscription } from './fanout-subscription';
import { Corkable, FlushQueue, FrameBatcher, TextSocket } from './frame-batcher';
import { audienceOf, SharedPayloads } from './shared-payloads';

/** Key of the GraphQL context of a graphql-ws operation: where the operation's frames go. */
export const LIVE_LINK = Symbol('live link');

export interface LiveLink {
  id: string;
  frames: FrameBatcher;
}

/** graphql-ws's `extra` for the `ws` server: the WebSocket and the upgrade request, whose `socket` is the TCP one under it. */
export interface WsExtra {
  socket: TextSocket;
  request: { socket: Corkable };
}

/**
 * graphql-ws's `subscribe`. The resolver still runs for each subscriber (guard, access check, a stream
 * from its own `after`); what an event becomes on the wire is executed once for all subscribers alike
 * (SharedPayloads) and written per connection in batches (FrameBatcher).
 */
export class LiveSubscriptions {
  private readonly payloads = new SharedPayloads();
  private readonly flushes = new FlushQueue();
  private readonly batchers = new WeakMap<TextSocket, FrameBatcher>();

  link(extra: WsExtra, id: string): LiveLink {
    let frames = this.batchers.get(extra.socket);
    if (!frames)
      this.batchers.set(
        extra.socket,
        (frames = new FrameBatcher(extra.socket, extra.request.socket, this.flushes.add)),
      );
    return { id, frames };
  }

  readonly subscribe = async (
    args: ExecutionArgs,
  ): Promise<AsyncGenerator<ExecutionResult, void, void> | ExecutionResult> => {
    const context = args.contextValue as { principal?: Principal; [LIVE_LINK]?: LiveLink } | undefined;
    const link = context?.[LIVE_LINK];
    if (!link) return subscribe(args);
    const source = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in source)) return refusedStream(source);
    return new FanoutSubscription(
      source[Symbol.asyncIterator](),
      link.id,
      link.frames,
      this.payloads.join(args, audienceOf(context.principal)),
    );
  };
}

/**
 * A subscription its resolver refused before it started (FIGHT_NOT_FOUND, SEQ_OUT_OF_RANGE, a
 * credential revoked, …), as a stream that fails at once: graphql-ws then ends the operation with an
 * `error` message whose extensions carry the refusal's shape, as it ends one it refuses to run (a
 * document that does not validate) and one whose credential ends while it runs. As a result it was a
 * `next` with `errors` and then `complete`, which a client reading only `data` took for a subscription
 * that ended with nothing to say.
 */
function refusedStream(
  result: ExecutionResult,
): AsyncGenerator<ExecutionResult, void, void> | ExecutionResult {
  const error = result.errors?.[0];
  return error ? failing(error) : result;
}

// eslint-disable-next-line require-yield -- a stream whose first step is its refusal
async function* failing(error: unknown): AsyncGenerator<ExecutionResult, void, void> {
  throw error;
}
