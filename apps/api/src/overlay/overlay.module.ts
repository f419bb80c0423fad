import { Module } from '@nestjs/common';
import { FightsModule } from '../fights.module';
import { OverlayController } from './overlay.controller';

/** `GET /overlay/:fightId`: a self-contained live page for OBS browser sources (docs/overlay.md). */
@Module({
  imports: [FightsModule],
  controllers: [OverlayController],
})
export class OverlayModule {}
