import { Inject, Module, OnApplicationShutdown } from '@nestjs/common';
import { createEventStore, EventStore } from '@app/event-store';
import { FightService } from '@app/fights';
import { ApiConfig } from './config';

export const API_CONFIG = Symbol('API_CONFIG');
export const EVENT_STORE = Symbol('EVENT_STORE');

@Module({
  providers: [
    {
      provide: EVENT_STORE,
      inject: [API_CONFIG],
      useFactory: (config: ApiConfig) => createEventStore({ url: config.eventStoreUrl, dataDir: config.dataDir }),
    },
    {
      provide: FightService,
      inject: [EVENT_STORE],
      useFactory: async (store: EventStore) => {
        const service = new FightService(store);
        await service.start();
        return service;
      },
    },
  ],
  exports: [FightService, EVENT_STORE],
})
export class FightsModule implements OnApplicationShutdown {
  constructor(
    private readonly fights: FightService,
    @Inject(EVENT_STORE) private readonly store: EventStore,
  ) {}

  async onApplicationShutdown(): Promise<void> {
    this.fights.stop();
    await this.store.close();
  }
}
