import type { EventStore } from './port';
import { appendContract } from './contract/append';
import { concurrencyContract } from './contract/concurrency';
import { readContract } from './contract/read';
import { subscribeContract } from './contract/subscribe';

/** Opens a fresh, empty store; the contract closes it after each test. */
export type StoreFactory = () => Promise<EventStore>;

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
