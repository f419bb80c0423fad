import { Controller, Get, Headers, Param, Query, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply as Response } from 'fastify';
import { randomBytes } from 'node:crypto';
import { AccessService } from '@app/fights';
import { pageReader } from '../auth/page-token';
import { Public } from '../auth/public.decorator';
import { OverlayErrorFilter } from './overlay-error.filter';
import { OverlayQuery } from './overlay.query';
import { overlayPage, sendHtml } from './page';

/** The streamer's overlay page (DESIGN.md "Interfaces"): HTML for an OBS browser source, not part of the JSON API. */
@ApiExcludeController()
@UseFilters(OverlayErrorFilter)
@Controller('overlay')
export class OverlayController {
  constructor(private readonly access: AccessService) {}

  // Public to the global guard: the page checks the token it will embed, and answers in HTML.
  @Public()
  @Get(':fightId')
  async page(
    @Param('fightId') fightId: string,
    @Query() q: OverlayQuery,
    @Res() res: Response,
    @Headers('authorization') authorization?: string,
  ): Promise<void> {
    await pageReader(this.access, q.token, fightId, authorization);
    const nonce = randomBytes(16).toString('base64');
    sendHtml(
      res,
      200,
      nonce,
      overlayPage(
        { fightId, token: q.token, layout: q.layout ?? 'bar', theme: q.theme ?? 'dark', scale: q.scale ?? 1 },
        nonce,
      ),
    );
  }
}
