/**
 * The event loop, shared between the answers written in chunks (./json-stream.ts). A big answer builds about
 * TURN_BYTES (8 chunks, ./chunk-writer.ts) on a turn, and at most `perTurn` answers build on one turn of the event
 * loop. However many big answers are under way, every turn of the loop then has its time for the rest:
 * accepting connections, reading requests, a `/health` probe.
 * Without it, every writer whose socket drained at once would build its next chunk in the same turn.
 *
 * Node accepts one connection per turn of the loop, however many wait in the kernel's queue. So while new
 * connections come in (a request on a connection not seen before, `connected`), a turn lets one answer build
 * instead of `perTurn`, and answers still get a turn on every iteration. What each choice was measured to do
 * under `npm run test:load` is in docs/design.md ("The path of a request", the write phase).
 */
export class WriteTurns {
  private readonly waiting: (() => void)[] = [];
  private scheduled = false;
  /** A connection not seen before sent a request since the last turn. */
  private connecting = false;

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

  /** A request came on a connection not seen before (the service tells, src/http/phases.ts): the next turn is short. */
  readonly connected = (): void => {
    this.connecting = true;
  };

  /** One turn: the first waiters go (they build as this callback's microtasks); the rest wait for the next. */
  private readonly turn = () => {
    const share = this.connecting ? 1 : this.perTurn;
    this.connecting = false;
    for (let i = 0; i < share && this.waiting.length > 0; i++) this.waiting.shift()!();
    // Scheduled from this callback, the next turn runs in the next iteration of the event loop, after its I/O.
    this.scheduled = this.waiting.length > 0;
    if (this.scheduled) setImmediate(this.turn);
  };
}
