import { Controller, Get, Param, Query, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { Response } from 'express';
import { randomBytes } from 'node:crypto';
import { AccessService, AppError } from '@app/fights';
import { Public } from '../auth/public.decorator';
import { sendHtml } from '../overlay/page';
import { replayPage } from './page';
import { ReplayErrorFilter } from './replay-error.filter';
import { ReplayQuery } from './replay.query';
import { replayVerifierScript } from './verifier-bundle';

/**
 * The replay page (docs/replay.md): a person steps through a whole fight and sees every die verified, in
 * the browser, by the verifier POST /audit/verify runs. HTML, not part of the JSON API.
 */
@ApiExcludeController()
@UseFilters(ReplayErrorFilter)
@Controller('replay')
export class ReplayController {
  constructor(private readonly access: AccessService) {}

  /** No fight, no token: the page opens an exported log file and checks it with no server state at all. */
  @Public()
  @Get()
  async files(@Res() res: Response): Promise<void> {
    const verifier = await replayVerifierScript();
    const nonce = randomBytes(16).toString('base64');
    sendHtml(res, 200, nonce, replayPage({}, verifier, nonce));
  }

  // Public to the global guard: the page checks the token it will embed (as the overlay does), and answers in HTML.
  @Public()
  @Get(':fightId')
  async page(
    @Param('fightId') fightId: string,
    @Query() q: ReplayQuery,
    @Res() res: Response,
  ): Promise<void> {
    const principal = this.access.registry.authenticate(q.token);
    if (!principal)
      throw new AppError(401, 'INVALID_CREDENTIALS', 'this token is unknown, revoked or expired', 'token');
    this.access.assertRead(principal, fightId);
    const verifier = await replayVerifierScript();
    const nonce = randomBytes(16).toString('base64');
    sendHtml(res, 200, nonce, replayPage({ fightId, token: q.token }, verifier, nonce));
  }
}
