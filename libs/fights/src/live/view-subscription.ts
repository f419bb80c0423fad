import { FightViewResult } from '../fight-cache';
import { PushIterator, PushObserver } from './push-iterator';

/** Push-mode consumer of a ViewSubscription. */
export type ViewObserver = PushObserver<FightViewResult>;

/**
 * One subscriber of a fight's shared view (shared-view.ts): the latest view it has not taken yet, so a
 * slow reader skips to the last. Read it by `next()` or, with no promise per change, by `observe()`.
 */
export class ViewSubscription extends PushIterator<FightViewResult> {
  private pending?: FightViewResult;

  constructor(
    first: FightViewResult,
    private readonly leave: (s: ViewSubscription) => void,
  ) {
    super();
    this.pending = first;
  }

  push(view: FightViewResult): void {
    if (this.closed || this.failure) return;
    this.emit(view);
  }

  /** Nothing more will come (the fight has ended): the view not yet taken, then the end. */
  end(): void {
    this.finish();
  }

  override fail(error: unknown): void {
    if (this.closed) return;
    super.fail(error);
  }

  protected take(): FightViewResult | undefined {
    const view = this.pending;
    this.pending = undefined;
    return view;
  }

  protected hold(view: FightViewResult): void {
    this.pending = view;
  }

  protected release(): void {
    this.pending = undefined;
    this.leave(this);
  }
}
