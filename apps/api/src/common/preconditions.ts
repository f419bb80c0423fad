import { applyDecorators } from '@nestjs/common';
import { ApiHeader, ApiResponse } from '@nestjs/swagger';
import { ErrorModel } from './models';
import { ENTITY_TAG, entityTags, preconditionFailed } from './fight-etag';
import { weakETag } from './http-reply';

type Headers = Record<string, string | string[] | undefined>;

/** The opaque part of the ETag GET gives an answer of this value (answerNotModified: its JSON's bytes). */
export const opaqueTagOf = (value: unknown): string => ENTITY_TAG.exec(weakETag(JSON.stringify(value)))![1];

/**
 * RFC 9110 section 13.1 for a PATCH or DELETE of a resource whose GET answers `current()`: If-Match
 * (lost-update protection) goes on only when one of its tags names the state GET would give now, or
 * it is `*`; If-None-Match only when none does (and never when it is `*`: the resource exists).
 * Otherwise 412 PRECONDITION_FAILED naming the header, and nothing is changed. GET's tags are weak (a
 * hash of the answer's bytes) but name that answer exactly, so they are compared as names of the state,
 * as a fight's are. A request that would fail without its conditions (no such resource, another
 * tenant's) fails as it would: `current()`'s error stands (RFC 9110 section 13.2.1). Without either
 * header nothing is read.
 */
export async function checkPreconditions(headers: Headers, current: () => Promise<unknown>): Promise<void> {
  const check = preconditionsOf(headers);
  if (check) check(await current());
}

/**
 * The check checkPreconditions makes, for a store to run where the state is read and changed in one
 * transaction (no other change between the two); undefined without either header. A header that is no
 * list of entity tags is refused here, before anything is read.
 */
export function preconditionsOf(headers: Headers): ((current: unknown) => void) | undefined {
  const ifMatch = entityTags(headers['if-match'], 'if-match');
  const ifNoneMatch = entityTags(headers['if-none-match'], 'if-none-match');
  if (ifMatch === undefined && ifNoneMatch === undefined) return undefined;
  return (current) => matchState(opaqueTagOf(current), ifMatch, ifNoneMatch);
}

function matchState(
  now: string,
  ifMatch: ReturnType<typeof entityTags>,
  ifNoneMatch: ReturnType<typeof entityTags>,
): void {
  if (ifMatch !== undefined && ifMatch !== '*' && !ifMatch.includes(now))
    throw preconditionFailed(
      'If-Match names no state this resource is in now: nothing was changed; GET it for its current ETag',
    );
  if (ifNoneMatch === '*' || ifNoneMatch?.includes(now))
    throw preconditionFailed(
      ifNoneMatch === '*'
        ? 'If-None-Match: * applies only where no resource exists, and this one does'
        : 'If-None-Match names the state this resource is in now: nothing was changed',
      'if-none-match',
    );
}

/** The OpenAPI of a route that checkPreconditions guards: its two headers and its 412. */
export const Preconditioned = () =>
  applyDecorators(
    ApiHeader({
      name: 'If-Match',
      required: false,
      description:
        'ETags from GET of this resource (or *): change it only while it is in one of those states, else 412',
    }),
    ApiHeader({
      name: 'If-None-Match',
      required: false,
      description:
        'ETags from GET of this resource: change it only while it is in none of them, else 412 (* is always 412)',
    }),
    ApiResponse({
      status: 412,
      type: ErrorModel,
      description:
        'PRECONDITION_FAILED: the resource is not in a state If-Match names, or is in one If-None-Match names (field names the header); nothing changed',
    }),
  );
