import type { EventStore } from './port';
import { appendContract } from './contract/append';
import { concurrencyContract } from './contract/concurrency';
import { readContract } from './contract/read';
import type { StoreFactory } from './contract/factory';
import { subscribeContract } from './contract/subscribe';

export type { StoreFactory } from './contract/factory';

/** The one suite every adapter passes (docs/event-store.md: "one contract test suite"). */
export function eventStoreContract(name: string, factory: StoreFactory): void {
  describe(`${name} event-store contract`, () => {
    const opened: EventStore[] = [];
    const open: StoreFactory = async () => {
      const store = await factory();
      opened.push(store);
      return store;
    };
    afterEach(async () => {
      await Promise.all(opened.splice(0).map((store) => store.close()));
    });

    appendContract(open);
    readContract(open);
    subscribeContract(open);
    concurrencyContract(open);
  });
}
