import { GraphQLError } from 'graphql';
import { AppError } from '@app/fights';
import { checkGraphqlSearchParameter } from '../common/body-checks';

/** GraphQL over HTTP: what a request may carry, as the POST body's members or GET's query parameters. */
export const GRAPHQL_PARAMETERS: readonly string[] = ['query', 'operationName', 'variables', 'extensions'];

const KNOWN: ReadonlySet<string> = new Set(GRAPHQL_PARAMETERS);

/** The first member of a request's parameters (a POST body, GET's query, a graphql-ws subscribe payload) that is none of GRAPHQL_PARAMETERS. */
function unknownOf(parameters: unknown): string | undefined {
  return firstName(parameters, (name) => !KNOWN.has(name));
}

/** The first of GRAPHQL_PARAMETERS among a request's query parameters. */
function knownOf(parameters: unknown): string | undefined {
  return firstName(parameters, (name) => KNOWN.has(name));
}

function firstName(parameters: unknown, wanted: (name: string) => boolean): string | undefined {
  if (typeof parameters !== 'object' || parameters === null || Array.isArray(parameters)) return undefined;
  return Object.keys(parameters).find(wanted);
}

function refusal(name: string, where: string): GraphQLError {
  const message = `${name} is not ${where}; it takes ${GRAPHQL_PARAMETERS.join(', ')}`;
  return new GraphQLError(message, {
    extensions: { code: 'BAD_REQUEST', statusCode: 400, message, field: name, http: { status: 400 } },
  });
}

/**
 * A request to /graphql with a parameter GraphQL over HTTP does not define (a POST body member, a query
 * parameter), or with GET's parameters in a POST's query string, is refused, 400 BAD_REQUEST naming it, as REST refuses what a route does not declare: Apollo
 * would ignore it, and a typo (`variable`, `operationname`) would run the request without what it meant.
 * Thrown where Apollo makes the context, before it reads the request: Apollo answers it as its own refusals
 * of the envelope, in the GraphQL error shape with its status.
 */
export function refuseUnknownParameters(req: { method?: string; body?: unknown; query?: unknown }): void {
  const parameter = unknownOf(req.query);
  if (parameter !== undefined) throw refusal(parameter, 'a query parameter of /graphql');
  // A POST's operation is its body (Apollo reads nothing else): one in the query string would be ignored.
  const inUrl = req.method === 'POST' ? knownOf(req.query) : undefined;
  if (inUrl !== undefined)
    throw refusal(
      inUrl,
      'a query parameter of a POST to /graphql (a POST sends it in its body; GET in the query)',
    );
  const member = unknownOf(req.body);
  if (member !== undefined) throw refusal(member, 'a member of a GraphQL request');
}

/**
 * GET's `variables` and `extensions` are JSON text that Apollo parses itself, past the checks every JSON
 * body gets: a name sent twice was taken last-one-wins, and a NUL reached the store (PostgreSQL: a 500).
 * Each is checked here, before Apollo reads it, as the same member of a POST body is
 * (checkGraphqlSearchParameter), and refused with POST's status, code and field. One sent twice is
 * left to Apollo, which refuses it naming it; both read the query string with URLSearchParams.
 */
export function refuseUncheckedJson(req: { method?: string; url?: string }): void {
  if (req.method !== 'GET' || !req.url?.includes('?')) return;
  const search = new URL(req.url, 'http://localhost/').searchParams;
  for (const name of ['variables', 'extensions'] as const) {
    const texts = search.getAll(name);
    if (texts.length !== 1) continue;
    try {
      checkGraphqlSearchParameter(name, texts[0]);
    } catch (e) {
      if (!(e instanceof AppError)) throw e;
      throw new GraphQLError(e.message, {
        extensions: {
          code: e.code,
          statusCode: e.status,
          message: e.message,
          ...(e.field !== undefined ? { field: e.field } : {}),
          http: { status: e.status },
        },
      });
    }
  }
}

/** The same for a graphql-ws subscribe message's payload: that operation ends with an error naming the member. */
export function unknownPayloadMember(payload: unknown): GraphQLError | undefined {
  const member = unknownOf(payload);
  return member === undefined ? undefined : refusal(member, 'a member of a subscribe payload');
}
