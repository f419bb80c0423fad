import { eventStoreContract } from '../src/contract';
import { InMemoryEventStore } from '../src/memory';

eventStoreContract('InMemoryEventStore', async () => new InMemoryEventStore());
