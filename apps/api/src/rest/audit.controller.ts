import { Body, Controller, HttpCode, OnModuleDestroy, Post, Query, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import {
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiQuery,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import { CHECKS, CLAIMS, LogFormatError } from '@app/audit';
import { AppError } from '@app/fights';
import { UnreadBody } from '../common/body-checks';
import { ErrorModel } from '../common/models';
import { LogVerifier, logTextOf, verifyOptionsOf } from '../common/log-verifier';

const CHECK_RESULT = {
  type: 'object',
  required: ['status'],
  properties: {
    status: { type: 'string', enum: ['ok', 'failed', 'skipped'] },
    detail: { type: 'string' },
    seq: {
      type: 'integer',
      minimum: 0,
      description:
        'On a failed check, the seq it fails at, the one detail names (0: the header; N+1: an event the log lacks). Absent when the check could not run.',
    },
  },
};

/** VerificationReport (libs/audit/src/verify.ts), for the OpenAPI document; the enums come from the verifier. */
export const VERIFICATION_REPORT_SCHEMA = {
  type: 'object',
  required: ['ok', 'complete', 'proven', 'notProven', 'fightId', 'events', 'checks'],
  properties: {
    ok: {
      type: 'boolean',
      description:
        'No check failed. Not the same as a whole fight: a prefix of a log, its header rebuilt, is ok too. Read complete, proven and notProven.',
    },
    complete: {
      type: 'boolean',
      description:
        'The log ends with FightEnded (no command is accepted after it), over an intact chain with the seed and every decision verified: it is not a prefix. False for a prefix or a fight still running.',
    },
    proven: {
      type: 'array',
      items: { type: 'string', enum: [...CLAIMS] },
      description: 'The claims this log proves, each only when everything it rests on passed.',
    },
    notProven: {
      type: 'array',
      description:
        'Every other claim, with why. headMatches and eventCountMatches are here unless headHash and events were given.',
      items: {
        type: 'object',
        required: ['claim', 'reason'],
        properties: { claim: { type: 'string', enum: [...CLAIMS] }, reason: { type: 'string' } },
      },
    },
    fightId: { type: 'string' },
    events: { type: 'integer', description: 'The events the log holds' },
    checks: {
      type: 'object',
      description: `One result per check: ${CHECKS.join(', ')}`,
      required: [...CHECKS],
      properties: Object.fromEntries(CHECKS.map((check) => [check, CHECK_RESULT])),
      additionalProperties: false,
    },
    firstDivergence: {
      type: 'object',
      description:
        'The earliest event where the log stops being what the service would have written (seq 0: the header; seq N+1: an event the log lacks)',
      properties: {
        seq: { type: 'integer' },
        check: { type: 'string', enum: [...CHECKS] },
        expected: {},
        found: {},
        message: { type: 'string' },
      },
    },
  },
};

/**
 * A log that cannot be read (not JSON or NDJSON, empty) is a 400; a readable log whose fields break
 * the log format (`entries`, a header field, an entry's field: `field` names it) is a 422, as any
 * readable body whose fields break its declaration, `issues` listing every such field (up to 100). The
 * code is LOG_FORMAT_INVALID either way.
 */
export function logFormatRefusal(e: LogFormatError): AppError {
  const refusal = new AppError(
    e.field ? 422 : 400,
    e.code,
    e.message,
    e.field ?? (e.line ? `line ${e.line}` : undefined),
  );
  // Every field that breaks the format (the first hundred), as a refused body lists its issues.
  if (e.issues?.length)
    Object.assign(refusal, {
      issues: e.issues.map((i) => ({ field: i.field, code: e.code, message: i.message })),
    });
  return refusal;
}

/**
 * The verifier the CLI runs (`npm run cli -- audit verify`), over HTTP. Logs are verified on a worker
 * thread (LogVerifier): a long one is seconds of work that would hold every other request up.
 */
@ApiTags('audit')
@Controller('audit')
export class AuditController implements OnModuleDestroy {
  constructor(private readonly verifier: LogVerifier) {}

  @Post('verify')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Verify a fight log',
    description:
      'Checks the hash chain, the sequence, the seed against its commitment, every die and decision re-run, the final view (under the view version the log names; a log exported before its system’s view changed has the view check skipped, not failed), and (with headHash or events) that the log ends where the auditor expects. A log cut after any event, its header rebuilt, still verifies on its own (ok: true) but is not complete. To tell the whole fight from a prefix, give the head hash (GET /fights/:id view.headHash) or event count you trust: a log that stops early, goes on past it or is another fight fails the head check. The report lists what it proved and what it did not.',
  })
  @ApiConsumes('application/json', 'application/x-ndjson')
  @ApiBody({
    schema: {
      type: 'object',
      additionalProperties: true,
      description: 'A log from GET /fights/:id/log (JSON), or its NDJSON form',
    },
  })
  @ApiQuery({
    name: 'headHash',
    required: false,
    schema: { type: 'string', pattern: '^[0-9a-fA-F]{64}$' },
    description: 'The head hash the auditor trusts: the log must end exactly at it',
  })
  @ApiQuery({
    name: 'events',
    required: false,
    schema: { type: 'integer', minimum: 1 },
    description: 'The number of events the auditor expects the log to hold',
  })
  @ApiOkResponse({ description: 'The verification report', schema: VERIFICATION_REPORT_SCHEMA })
  @ApiResponse({
    status: 503,
    type: ErrorModel,
    description:
      'The verifier has more logs waiting than it keeps, three times AUDIT_BODY_LIMIT in bytes (VERIFIER_BUSY), or the store is unreachable (STORE_UNAVAILABLE); Retry-After says when to try again.',
  })
  async verify(@Body() body: unknown, @Query() query: Record<string, unknown>, @Req() req: FastifyRequest) {
    try {
      // A body that came in is read on the verifier's worker (UnreadBody); none at all is no log.
      if (body instanceof UnreadBody) return await this.verifier.verifyPosted({ body, url: req.url, query });
      const options = verifyOptionsOf(query);
      return await this.verifier.verify(logTextOf(body), options);
    } catch (e) {
      if (e instanceof LogFormatError) throw logFormatRefusal(e);
      throw e;
    }
  }

  onModuleDestroy(): Promise<void> {
    return this.verifier.close();
  }
}
