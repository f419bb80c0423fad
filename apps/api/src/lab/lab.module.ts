import { Module } from '@nestjs/common';
import { LabController } from './lab.controller';
import { LabResolver } from './lab.resolver';
import { LabService } from './lab.service';

/** Combat Lab over REST and GraphQL; the app's global guard, pipe and filter apply. */
@Module({
  controllers: [LabController],
  providers: [LabService, LabResolver],
})
export class LabModule {}
