import createClient, { type Client, type ClientOptions, type Middleware } from 'openapi-fetch';
import type { components, operations, paths } from './openapi';

/**
 * A typed client of the combat rules service, generated from its OpenAPI document (openapi.d.ts, by
 * openapi-typescript) and run by openapi-fetch. Commands, events and sheets are typed per system: a
 * misspelt command type or field does not compile.
 */

export type { components, operations, paths };
export type Schemas = components['schemas'];

/** Commands as the service declares them, one union per system (the `type` field discriminates). */
export type NarateerCommand = Schemas['NarateerCommand'];
export type ArcanaBeastCommand = Schemas['ArcanaBeastCommand'];
export type ArchsoulCommand = Schemas['ArchsoulCommand'];
export type Command = Schemas['Command'];

/** Events as the log holds them, one union per system (discriminated by `type`). */
export type NarateerEvent = Schemas['NarateerEvent'];
export type ArcanaBeastEvent = Schemas['ArcanaBeastEvent'];
export type ArchsoulEvent = Schemas['ArchsoulEvent'];
export type FightEvent = Schemas['FightEvent'];

export type NarateerSheet = Schemas['NarateerSheet'];
export type ArcanaBeastSheet = Schemas['ArcanaBeastSheet'];
export type ArchsoulSheet = Schemas['ArchsoulSheet'];

export type CreateFight = Schemas['CreateFightInput'];
export type CommandResult = Schemas['CommandResultModel'];
export type ApiErrorBody = Schemas['ErrorModel'];

/** The commands of one system, by its id. */
export interface CommandsOf {
  narateer: NarateerCommand;
  'arcana-beast': ArcanaBeastCommand;
  archsoul: ArchsoulCommand;
}
export type SystemId = keyof CommandsOf;

/** The events of one system's fights, by its id. */
export interface EventsOf {
  narateer: NarateerEvent;
  'arcana-beast': ArcanaBeastEvent;
  archsoul: ArchsoulEvent;
}

/** The fight view of one system, by its id (each view's `system` names it). */
export interface ViewsOf {
  narateer: Schemas['NarateerView'];
  'arcana-beast': Schemas['ArcanaBeastView'];
  archsoul: Schemas['ArchsoulView'];
}

/** A command's answer in a fight of system S: that system's events and view, not every system's. */
export type CommandResultOf<S extends SystemId> = Omit<CommandResult, 'events' | 'view'> & {
  events: Array<EventsOf[S]>;
  view: ViewsOf[S];
};

/** A refusal or failure from the service: its status and the one error shape (code, message, field). */
export class CombatApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ApiErrorBody & { issues?: Array<{ field: string; code: string; message: string }> },
  ) {
    super(`${status} ${body.code}: ${body.message}`);
    this.name = 'CombatApiError';
  }
  get code(): string {
    return this.body.code;
  }
  get field(): string | undefined {
    return this.body.field;
  }
}

export interface CombatClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the service listens, e.g. http://localhost:3000 */
  baseUrl: string;
  /** An API key (`crs_…`) or a fight token (`crt_…`), sent as `Authorization: Bearer`. */
  apiKey?: string;
}

export interface CombatClient {
  /** Every route of the OpenAPI document, typed (openapi-fetch): `api.GET('/fights/{id}', { params: { path: { id } } })`. */
  api: Client<paths>;
  /**
   * Creates a fight; throws CombatApiError on a refusal. With `system` one the client knows, the answer has that
   * system's events and view. A `commandId` makes the creation safe to send again (the same fight answers).
   */
  createFight<S extends SystemId>(body: CreateFight & { system: S }): Promise<CommandResultOf<S>>;
  createFight(body: CreateFight): Promise<CommandResult>;
  /** Sends one command of the fight's system; throws CombatApiError on a refusal. Typed by that system. */
  command<S extends SystemId>(
    system: S,
    fightId: string,
    command: CommandsOf[S],
    options?: { commandId?: string; expectedSeq?: number },
  ): Promise<CommandResultOf<S>>;
}

function unwrap<T>(result: { data?: T; error?: unknown; response: Response }): T {
  if (result.data !== undefined && result.response.ok) return result.data;
  throw new CombatApiError(
    result.response.status,
    (result.error ?? {
      statusCode: result.response.status,
      code: 'UNKNOWN',
      message: result.response.statusText,
    }) as ApiErrorBody,
  );
}

export function createCombatClient({ apiKey, ...options }: CombatClientOptions): CombatClient {
  const api = createClient<paths>(options);
  if (apiKey) {
    const auth: Middleware = {
      onRequest({ request }) {
        request.headers.set('authorization', `Bearer ${apiKey}`);
        return request;
      },
    };
    api.use(auth);
  }
  return {
    api,
    // The service answers in the fight's own system (its view's `system` says which): the narrower types hold.
    async createFight(body: CreateFight) {
      return unwrap(await api.POST('/fights', { body })) as CommandResultOf<SystemId>;
    },
    async command<S extends SystemId>(
      _system: S,
      fightId: string,
      command: CommandsOf[S],
      extra: { commandId?: string; expectedSeq?: number } = {},
    ) {
      return unwrap(
        await api.POST('/fights/{id}/commands', {
          params: { path: { id: fightId } },
          body: { ...command, ...extra },
        }),
      ) as CommandResultOf<S>;
    },
  };
}
