import { openReplay } from './replay-model';

/**
 * The entry of the replay page's verifier bundle (scripts/build-replay.js): libs/audit's verifier and
 * libs/rules, for the browser, as one global the page script calls.
 */
(globalThis as unknown as { ReplayVerifier: unknown }).ReplayVerifier = { openReplay };
