/**
 * The event loop, shared between new connections and the answers written in chunks (./json-stream.ts). A big
 * answer builds about TURN_BYTES (8 chunks, ./chunk-writer.ts) on a turn, and at most `perTurn` answers build
 * on one turn of the event loop. However many big answers are under way, every turn of the loop then has its
 * time for the rest: accepting connections, reading requests, a `/health` probe.
 *
 * Node accepts one connection per turn of the loop (libuv), however many wait in the kernel's queue: when 300
 * clients connect at once, the last of them waits for 300 turns, and whatever else a turn does is paid 300
 * times. So while connections come in (a request on a connection not seen before, `connected`, within the
 * last `quietMs`), the turns are theirs: no answer builds and no list read starts (`start`), except one of
 * each every `holdMs`, so that a steady stream of new connections slows the big answers without stopping them.
 * Otherwise a turn lets `perTurn` answers build and `perTurn` list reads start.
 * What each choice was measured to do under `npm run test:load` is in docs/maintainers/design.md ("The path of a
 * request", the write phase).
 */
export class WriteTurns {
  /** Answers waiting to build their next part. */
  private readonly waiting: (() => void)[] = [];
  /** List reads waiting to start. */
  private readonly starting: (() => void)[] = [];
  private scheduled = false;
  /** When the last request on a connection not seen before came (performance.now()). */
  private arrived = -Infinity;
  /** When a turn last let anything go. */
  private lastTurn = -Infinity;

  /**
   * `perTurn`: answers that build on one turn of the event loop (about 128 KiB each, under a millisecond).
   * `quietMs`: how long after the last new connection its burst is over; `holdMs`: the longest a burst holds
   * the answers and list reads back.
   */
  constructor(
    private readonly perTurn = 4,
    private readonly timing = { quietMs: 2, holdMs: 20 },
  ) {}

  /** Resolves when the caller may build its next part. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.schedule();
    });
  }

  /**
   * Before a list is read (its first batch costs as much as a turn): undefined when it may start now, or a
   * promise of the turn it starts on, while connections come in.
   */
  start(): Promise<void> | undefined {
    if (!this.arriving(performance.now())) return undefined;
    return new Promise((resolve) => {
      this.starting.push(resolve);
      this.schedule();
    });
  }

  /** A request came on a connection not seen before (the service tells, src/http/phases.ts). */
  readonly connected = (): void => {
    this.arrived = performance.now();
  };

  private arriving(now: number): boolean {
    return now - this.arrived < this.timing.quietMs;
  }

  private schedule(): void {
    if (this.scheduled) return;
    this.scheduled = true;
    setImmediate(this.turn);
  }

  /** One turn: the first waiters go (they build as this callback's microtasks); the rest wait for the next. */
  private readonly turn = () => {
    const now = performance.now();
    const arriving = this.arriving(now);
    if (arriving && now - this.lastTurn < this.timing.holdMs) {
      // Held: checked again after the loop has polled for a millisecond (no busy turns meanwhile).
      setTimeout(this.turn, 1);
      return;
    }
    this.lastTurn = now;
    const share = arriving ? 1 : this.perTurn;
    for (let i = 0; i < share && this.starting.length > 0; i++) this.starting.shift()!();
    for (let i = 0; i < share && this.waiting.length > 0; i++) this.waiting.shift()!();
    // Scheduled from this callback, the next turn runs in the next iteration of the event loop, after its I/O.
    this.scheduled = this.waiting.length > 0 || this.starting.length > 0;
    if (this.scheduled) setImmediate(this.turn);
  };
}
