/** A FIFO async mutex: one holder at a time, waiters served in arrival order. */
export class Mutex {
  private tail: Promise<void> = Promise.resolve();
  private queued = 0;

  /** Callers waiting for the mutex behind the current holder. */
  get waiting(): number {
    return this.queued;
  }

  async run<T>(fn: () => Promise<T>): Promise<T> {
    let release!: () => void;
    const next = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.tail;
    this.tail = previous.then(() => next);
    this.queued++;
    await previous;
    this.queued--;
    try {
      return await fn();
    } finally {
      release();
    }
  }
}
