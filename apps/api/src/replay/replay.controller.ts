import { Controller, Get, Headers, Param, Query, Req, Res, UseFilters } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';
import type { FastifyReply as Response, FastifyRequest as Request } from 'fastify';
import { randomBytes } from 'node:crypto';
import Negotiator from 'negotiator';
import { AccessService, AppError } from '@app/fights';
import { pageReader } from '../auth/page-token';
import { Public } from '../auth/public.decorator';
import { toApiError } from '../common/to-api-error';
import { sendHtml } from '../overlay/page';
import { replayPage, ReplaySettings, VerifierTag } from './page';
import { ReplayErrorFilter } from './replay-error.filter';
import { ReplayQuery } from './replay.query';
import { replayVerifierScript, VerifierScript } from './verifier-bundle';

/** A hashed URL names one build of the script for ever: any cache may keep it a year. */
const IMMUTABLE = 'public, max-age=31536000, immutable';

/**
 * The replay page (docs/replay.md): a person steps through a whole fight and sees every die verified, in
 * the browser, by the verifier POST /audit/verify runs. HTML, not part of the JSON API. Routes are matched
 * in the order of the methods: the fixed ones before `:fightId`.
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
    send(res, {}, linked(await replayVerifierScript()));
  }

  /** The same page as one self-contained file (the verifier inline), to save and open from disk: file://, no server. */
  @Public()
  @Get('offline.html')
  async offline(@Res() res: Response): Promise<void> {
    const verifier = await replayVerifierScript();
    void res.header('content-disposition', 'attachment; filename="fight-replay.html"');
    send(res, {}, { inline: verifier.code });
  }

  /**
   * The verifier bundle the page loads: cacheable for ever at its hashed URL (the page itself is never
   * cached, so it always names the current one), brotli or gzip when the browser takes them. An asset,
   * not a page: its errors are the API's JSON.
   */
  @Public()
  @Get('verifier.:hash.js')
  async script(@Param('hash') hash: string, @Req() req: Request, @Res() res: Response): Promise<void> {
    try {
      const verifier = await replayVerifierScript();
      if (hash !== verifier.hash)
        throw new AppError(
          404,
          'NOT_FOUND',
          `no replay script verifier.${hash}.js: this build serves ${verifier.file}`,
          'hash',
        );
      // Of the codings the browser accepts, the smallest: browsers list gzip before br at equal weight.
      const accepted = new Negotiator(req).encodings(['br', 'gzip']);
      const encoding = accepted.includes('br') ? 'br' : accepted.includes('gzip') ? 'gzip' : 'identity';
      void res.headers({
        'content-type': 'text/javascript; charset=utf-8',
        'cache-control': IMMUTABLE,
        vary: 'Accept-Encoding',
        'x-content-type-options': 'nosniff',
      });
      if (encoding === 'br' || encoding === 'gzip') {
        // One entity tag per representation; answerNotModified answers 304 to an If-None-Match that holds it.
        void res
          .headers({ 'content-encoding': encoding, etag: `"${verifier.hash}-${encoding}"` })
          .send(await verifier.encoded(encoding));
      } else {
        void res.header('etag', `"${verifier.hash}"`).send(Buffer.from(verifier.code, 'utf8'));
      }
    } catch (e) {
      const error = toApiError(e);
      if (res.sent) return void res.raw.end();
      res.removeHeader('cache-control');
      res.removeHeader('content-encoding');
      res.removeHeader('etag');
      void res.status(error.statusCode).header('cache-control', 'no-store').send(error);
    }
  }

  // Public to the global guard: the page checks the token it will embed (as the overlay does), and answers in HTML.
  @Public()
  @Get(':fightId')
  async page(
    @Param('fightId') fightId: string,
    @Query() q: ReplayQuery,
    @Res() res: Response,
    @Headers('authorization') authorization?: string,
  ): Promise<void> {
    await pageReader(this.access, q.token, fightId, authorization);
    send(res, { fightId, token: q.token }, linked(await replayVerifierScript()));
  }
}

function linked(verifier: VerifierScript): VerifierTag {
  return { src: `/replay/${verifier.file}`, integrity: verifier.integrity };
}

function send(res: Response, settings: ReplaySettings, verifier: VerifierTag): void {
  const nonce = randomBytes(16).toString('base64');
  sendHtml(res, 200, nonce, replayPage(settings, verifier, nonce));
}
