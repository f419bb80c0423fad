import type { EventStore } from '../port';

/** Opens a fresh, empty store; the contract closes it after each test. */
export type StoreFactory = () => Promise<EventStore>;
