import { execute, ExecutionArgs, ExecutionResult, print } from 'graphql';
import { Principal } from '@app/fights';

/** What a principal may see of a fight. Subscribers that differ only in who they are (not in this) get one payload. */
export function audienceOf(p: Principal | undefined): string {
  switch (p?.kind) {
    case 'admin':
      return 'admin';
    case 'tenant':
      return `tenant:${p.tenantId}`;
    case 'player':
      return `player:${p.fightId}:${[...p.combatantIds].sort().join(',')}`;
    case 'spectator':
      return `spectator:${p.fightId}`;
    default:
      return 'anonymous';
  }
}

/** The payload of a graphql-ws `next` message, serialised: a string, or a promise of one when a resolver is async. */
export type PayloadJson = string | Promise<string>;

export interface PayloadRenderer {
  render(payload: unknown): PayloadJson;
  /** Call once when the subscriber leaves. */
  leave(): void;
}

/**
 * Subscription payloads executed and serialised once per (source payload, document, variables,
 * audience) and shared by every subscriber with that key; each subscriber used to run its own
 * execution of the same event. The feed hands every subscriber of a fight the same event object,
 * so the object itself keys the result, and a WeakMap lets the result go when the event does.
 * The execution runs with the context of whichever subscriber asks first: resolvers below a
 * subscription may depend on the audience, never on the individual key or token.
 */
export class SharedPayloads {
  private readonly groups = new Map<string, { members: number; results: WeakMap<object, PayloadJson> }>();

  join(args: ExecutionArgs, audience: string): PayloadRenderer {
    const key = [
      audience,
      args.operationName ?? '',
      JSON.stringify(args.variableValues ?? {}),
      args.document.loc?.source.body ?? print(args.document),
    ].join('\n');
    const group = this.groups.get(key) ?? { members: 0, results: new WeakMap<object, PayloadJson>() };
    this.groups.set(key, group);
    group.members++;
    let left = false;
    return {
      render: (payload) => {
        if (typeof payload !== 'object' || payload === null)
          return serialise(execute({ ...args, rootValue: payload }));
        let json = group.results.get(payload);
        if (json === undefined)
          group.results.set(payload, (json = serialise(execute({ ...args, rootValue: payload }))));
        return json;
      },
      leave: () => {
        if (left) return;
        left = true;
        if (--group.members === 0) this.groups.delete(key);
      },
    };
  }
}

function serialise(result: ExecutionResult | Promise<ExecutionResult>): PayloadJson {
  return result instanceof Promise ? result.then(toJson) : toJson(result);
}

/** As graphql-ws writes a result: `errors` last and absent when there are none. */
function toJson({ errors, ...rest }: ExecutionResult): string {
  return JSON.stringify(errors ? { ...rest, errors: errors.map((e) => e.toJSON()) } : rest);
}
