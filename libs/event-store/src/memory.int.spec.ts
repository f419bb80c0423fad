import { eventStoreContract } from './contract';
import { InMemoryEventStore } from './memory';

eventStoreContract('InMemoryEventStore', async () => new InMemoryEventStore());
