import { Body, Controller, HttpCode, Post } from '@nestjs/common';
import { ApiBody, ApiConsumes, ApiOkResponse, ApiOperation, ApiResponse, ApiTags } from '@nestjs/swagger';
import { LogFormatError, parseFightLog, verifyFightLog } from '@app/audit';
import { AppError } from '@app/fights';
import { ErrorModel } from '../common/models';

/** The verifier the CLI runs (`npm run cli -- audit verify`), over HTTP. */
@ApiTags('audit')
@Controller('audit')
export class AuditController {
  @Post('verify')
  @HttpCode(200)
  @ApiOperation({ summary: 'Verify a fight log: hash chain, sequence, seed against commitment, every die and decision re-run, final view. The report names the first divergence.' })
  @ApiConsumes('application/json', 'application/x-ndjson')
  @ApiBody({ schema: { type: 'object', additionalProperties: true, description: 'A log from GET /fights/:id/log (JSON), or its NDJSON form' } })
  @ApiOkResponse({ description: 'The verification report ({ ok, checks, firstDivergence? })' })
  @ApiResponse({ status: 400, type: ErrorModel, description: 'LOG_FORMAT_INVALID: not a fight log' })
  verify(@Body() body: unknown) {
    let text: string;
    if (typeof body === 'string') text = body;
    else if (typeof body === 'object' && body !== null && !Array.isArray(body)) text = JSON.stringify(body);
    else throw new AppError(400, 'LOG_FORMAT_INVALID', 'the body must be a fight log (JSON or NDJSON)', 'body');
    try {
      return verifyFightLog(parseFightLog(text));
    } catch (e) {
      if (e instanceof LogFormatError) throw new AppError(400, e.code, e.message, e.field ?? (e.line ? `line ${e.line}` : undefined));
      throw e;
    }
  }
}
