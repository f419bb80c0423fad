import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { FightService, ProjectionRunner } from '@app/fights';
import { FightsModule } from '../fights.module';
import { Metrics } from './metrics';
import { OpsController } from './ops.controller';
import { WriteHealth } from './write-health';

@Module({
  imports: [TerminusModule, FightsModule],
  controllers: [OpsController],
  providers: [
    {
      provide: Metrics,
      inject: [FightService, ProjectionRunner],
      useFactory: (fights: FightService, runner: ProjectionRunner) => new Metrics(fights, runner),
    },
    {
      provide: WriteHealth,
      inject: [FightService],
      useFactory: (fights: FightService) => new WriteHealth(fights),
    },
  ],
  exports: [Metrics, WriteHealth],
})
export class OpsModule {}
