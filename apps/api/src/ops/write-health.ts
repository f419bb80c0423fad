import { isConnectionError, StoreFault, storeFault } from '@app/event-store';
import { FightService } from '@app/fights';

/** How long after its latest failed append an instance stays not ready, unless an append succeeds first. */
export const WRITE_FAULT_HOLD_MS = 10_000;

/** Why the store refused the latest append: its own state (storeFault) or the connection to it lost. */
export type WriteFault = StoreFault | 'connection';

export interface WriteFaultState {
  fault: WriteFault;
  /** When the first failure of this run happened, and the latest. */
  since: Date;
  latest: Date;
  /** Failed appends since the last one stored. */
  failures: number;
}

/**
 * Whether this instance's store takes writes, as its own appends found it. Reads can go on while writes
 * cannot (a full disk, a read-only file or standby, a lost connection), so the readiness probe's read alone
 * would keep sending commands to an instance that can only refuse them. A store fault on an append marks the
 * instance not ready for WRITE_FAULT_HOLD_MS after the latest one; an append that is stored clears it at once.
 * The hold ends by itself so that traffic comes back and finds out whether the store has recovered (nothing
 * else writes to find out): an instance whose store still fails is marked again by its next command.
 */
export class WriteHealth {
  private state: WriteFaultState | undefined;

  constructor(
    fights: Pick<FightService, 'onAppend'>,
    private readonly now: () => number = Date.now,
  ) {
    fights.onAppend.add((failure) => this.record(failure));
  }

  /** The fault that makes the instance not ready now, if any. */
  current(): WriteFaultState | undefined {
    const state = this.state;
    if (state && this.now() - state.latest.getTime() >= WRITE_FAULT_HOLD_MS) this.state = undefined;
    return this.state;
  }

  private record(failure: unknown): void {
    if (failure === undefined) {
      this.state = undefined;
      return;
    }
    const fault: WriteFault | undefined = isConnectionError(failure) ? 'connection' : storeFault(failure);
    // Anything else (a bug, a value the store refused) says nothing of whether the store can write.
    if (!fault) return;
    const at = new Date(this.now());
    const ongoing = this.current();
    this.state = { fault, since: ongoing?.since ?? at, latest: at, failures: (ongoing?.failures ?? 0) + 1 };
  }
}
