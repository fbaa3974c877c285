import { OverloadedError } from '../errors';

export interface QueueSettings {
  /** Tasks running at once (the pool's connections). */
  size: number;
  /** Tasks allowed to wait for a free slot; one more is refused at once. */
  limit: number;
  /** Longest wait for a slot (ms). */
  timeoutMs: number;
}

interface Waiter {
  start: () => void;
  fail: (err: Error) => void;
}

/**
 * A bounded, first-come-first-served wait for one of `size` slots, in front of the pool: waiting for a busy database is
 * told apart from failing to reach it. Over `limit` waiting, or after `timeoutMs`, a task fails with OverloadedError
 * unrun; one whose signal aborts leaves the queue unrun. A signal gets one abort listener however many tasks it has.
 */
export class WaitQueue {
  private running = 0;
  /** In arrival order (a Set keeps insertion order and removes any waiter in O(1)). */
  private readonly waiters = new Set<Waiter>();
  /** The waiters of each signal that has some, with the one listener that fails them on abort. */
  private readonly bySignal = new Map<AbortSignal, { waiters: Set<Waiter>; onAbort: () => void }>();

  constructor(private readonly settings: QueueSettings) {}

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.waiters.size;
  }

  /** Runs `task` in a slot, after waiting for one if all are taken. */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.acquire(signal);
    try {
      return await task();
    } finally {
      this.release();
    }
  }

  /** Fails every waiting task with `err` (storage is down: waiting would only turn "unreachable" into "busy"). */
  failWaiting(err: Error): void {
    for (const waiter of [...this.waiters]) waiter.fail(err);
  }

  private acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.running < this.settings.size && this.waiters.size === 0) {
      this.running += 1;
      return Promise.resolve();
    }
    if (this.waiters.size >= this.settings.limit) {
      return Promise.reject(new OverloadedError(`Server busy: ${this.waiters.size} requests already wait for storage`));
    }
    return new Promise<void>((resolve, reject) => {
      const leave = () => {
        this.waiters.delete(waiter);
        clearTimeout(timer);
        if (signal) this.unwatch(signal, waiter);
      };
      const waiter: Waiter = {
        start: () => (leave(), resolve()),
        fail: (err) => (leave(), reject(err)),
      };
      const timer = setTimeout(
        () => waiter.fail(new OverloadedError(`Server busy: no storage connection within ${this.settings.timeoutMs} ms`)),
        this.settings.timeoutMs,
      );
      if (signal) this.watch(signal, waiter);
      this.waiters.add(waiter);
    });
  }

  /** Fails `waiter` when `signal` aborts, through the signal's one listener. */
  private watch(signal: AbortSignal, waiter: Waiter): void {
    let watched = this.bySignal.get(signal);
    if (!watched) {
      const waiters = new Set<Waiter>();
      const onAbort = () => {
        for (const each of [...waiters]) each.fail(signal.reason as Error);
      };
      watched = { waiters, onAbort };
      this.bySignal.set(signal, watched);
      signal.addEventListener('abort', onAbort, { once: true });
    }
    watched.waiters.add(waiter);
  }

  private unwatch(signal: AbortSignal, waiter: Waiter): void {
    const watched = this.bySignal.get(signal);
    if (!watched) return;
    watched.waiters.delete(waiter);
    if (watched.waiters.size > 0) return;
    this.bySignal.delete(signal);
    signal.removeEventListener('abort', watched.onAbort);
  }

  private release(): void {
    const [next] = this.waiters;
    // The slot passes straight to the first waiter (`running` unchanged), so no newcomer jumps the queue.
    if (next) next.start();
    else this.running -= 1;
  }
}
