/**
 * The event loop, shared between the answers written in chunks (./json-stream.ts). A big answer builds about
 * TURN_BYTES (8 chunks, ./chunk-writer.ts) on a turn, and at most `perTurn` answers build on one turn of the event
 * loop. However many big answers are under way, every turn of the loop then has its time for the rest:
 * accepting connections (Node accepts one per turn when they queue), reading requests, a `/health` probe.
 * Without it, every writer whose socket drained at once would build its next chunk in the same turn: 300
 * readers of a 5 MiB list held the loop for over a second at a time (`npm run test:load`, many readers).
 */
export class WriteTurns {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  /** `perTurn`: answers that build on one turn of the event loop (about 128 KiB each, under a millisecond). */
  constructor(private readonly perTurn = 4) {}

  /** Resolves when the caller may build its next part. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.turn);
      }
    });
  }

  /** One turn: the first `perTurn` waiters go (they build as this callback's microtasks); the rest wait for the next. */
  private readonly turn = () => {
    for (let i = 0; i < this.perTurn && this.waiting.length > 0; i++) this.waiting.shift()!();
    // Scheduled from this callback, the next turn runs in the next iteration of the event loop, after its I/O.
    this.scheduled = this.waiting.length > 0;
    if (this.scheduled) setImmediate(this.turn);
  };
}
