/**
 * The event loop, shared between the answers written in chunks (./json-stream.ts). Each chunk of a big answer
 * is built on a turn, and at most `perTurn` chunks, of all the answers being written, are built in one turn of
 * the event loop. However many big answers are under way, every turn of the loop then has its time for the
 * rest: accepting connections (Node accepts one per turn when they queue), reading requests, a `/health` probe.
 * Without it, every writer whose socket drained at once would build its next chunk in the same turn: 300
 * readers of a 5 MiB list held the loop for over a second at a time (`npm run test:load`, many readers).
 */
export class WriteTurns {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;

  /** `perTurn`: chunks built per turn of the event loop; a chunk is about 64 KiB, under a millisecond to build. */
  constructor(private readonly perTurn = 8) {}

  /** Resolves when the caller may build its next chunk. */
  next(): Promise<void> {
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      if (!this.scheduled) {
        this.scheduled = true;
        setImmediate(this.turn);
      }
    });
  }

  /** One turn: the first `perTurn` waiters go (their chunks are built as this callback's microtasks); the rest wait for the next. */
  private readonly turn = () => {
    for (let i = 0; i < this.perTurn && this.waiting.length > 0; i++) this.waiting.shift()!();
    // Scheduled from this callback, the next turn runs in the next iteration of the event loop, after its I/O.
    this.scheduled = this.waiting.length > 0;
    if (this.scheduled) setImmediate(this.turn);
  };
}
