import { Module } from '@nestjs/common';
import { FightsModule } from '../fights.module';
import { ReplayController } from '../replay/replay.controller';
import { OverlayController } from './overlay.controller';

/**
 * The service's own browser pages, self-contained: `GET /overlay/:fightId`, a live page for OBS browser
 * sources (docs/overlay.md), and `GET /replay[/:fightId]`, a fight stepped through and verified (docs/replay.md).
 */
@Module({
  imports: [FightsModule],
  controllers: [OverlayController, ReplayController],
})
export class OverlayModule {}
