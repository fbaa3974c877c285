import { GraphQLError } from 'graphql';

export interface LargeAnswerSettings {
  /** Most records one operation's result may hold (GRAPHQL_MAX_RESULT_ITEMS); more is a RESULT_TOO_LARGE error. */
  maxItems: number;
  /** Large answers being built or written at once (GRAPHQL_MAX_LARGE_ANSWERS). */
  slots: number;
  /** Longest wait for a turn (GRAPHQL_LARGE_ANSWER_WAIT_MS); then the request is a 503 with Retry-After. */
  waitMs: number;
}

/** A result of more records than this is a large answer: it waits for a turn (a root list: before it is read). */
const LARGE_ITEMS = 1000;

/** Thrown inside a resolver when a large answer found no turn in time: the endpoint answers 503 with Retry-After. */
export class LargeAnswersBusy extends Error {}

/**
 * The memory budget of GraphQL answers. A GraphQL result is built whole in memory before it is written
 * (graphql-js completes the whole tree), then written in chunks as the client reads it
 * (src/http/json-stream.ts), so a result is held until its client has read it. Two bounds keep what
 * clients can make the service hold:
 *
 * - One result holds at most `maxItems` records: a root list whose collection holds more is refused
 *   before its records are read (RESULT_TOO_LARGE), and so are nested lists that take a result past it.
 * - At most `slots` large answers (more than LARGE_ITEMS records) are being built or written at once. A
 *   root list that makes an answer large waits for a turn (first come, first served), up to `waitMs`, then
 *   its request is answered 503 with Retry-After, before any of its records were read. Nested lists that
 *   make an answer large take a free turn at once or are answered 503 at once: their records are already
 *   read. A turn is held until the answer is written or its connection closes (a client that stops reading
 *   is cut off by RESPONSE_WRITE_TIMEOUT_MS).
 *
 * So at most about `slots` x `maxItems` records are held for large GraphQL answers, whatever clients do.
 */
export class LargeAnswers {
  private running = 0;
  /** Waiting requests in arrival order; each entry starts its request's turn. */
  private readonly waiting = new Set<() => void>();

  constructor(readonly settings: LargeAnswerSettings) {}

  /** The budget of one request's result. */
  budget(): ResultBudget {
    return new ResultBudget(this);
  }

  /** A turn's release: the turn passes straight to the first waiter (`running` unchanged), so no newcomer jumps the queue. */
  private readonly release = () => {
    const [next] = this.waiting;
    if (next) next();
    else this.running -= 1;
  };

  busy(): LargeAnswersBusy {
    return new LargeAnswersBusy(`Server busy: ${this.settings.slots} large answers are being written; retry later.`);
  }

  /** A turn now, if one is free and nobody waits for one: its release function; otherwise undefined. */
  tryTurn(): (() => void) | undefined {
    if (this.running >= this.settings.slots || this.waiting.size > 0) return undefined;
    this.running += 1;
    return once(this.release);
  }

  /** Resolves with a release function once a turn is free; rejects with LargeAnswersBusy after `waitMs`. */
  turn(): Promise<() => void> {
    const now = this.tryTurn();
    if (now) return Promise.resolve(now);
    return new Promise((resolve, reject) => {
      const start = () => {
        clearTimeout(timer);
        this.waiting.delete(start);
        resolve(once(this.release));
      };
      const timer = setTimeout(() => {
        this.waiting.delete(start);
        reject(this.busy());
      }, this.settings.waitMs);
      this.waiting.add(start);
    });
  }
}

const once = (fn: () => void) => {
  let done = false;
  return () => {
    if (done) return;
    done = true;
    fn();
  };
};

/** What one request's result holds so far, and its turn when it is a large answer. */
export class ResultBudget {
  /** Records counted into the result. */
  items = 0;
  private release?: () => void;
  private asked?: Promise<void>;
  /** Refused a turn: a second run of the operation (src/graphql/execution.ts) is refused at once too. */
  private refused?: LargeAnswersBusy;
  private closed = false;

  constructor(private readonly answers: LargeAnswers) {}

  /** Whether the result is a large answer: it holds more than LARGE_ITEMS records, and is written in chunks. */
  get large(): boolean {
    return this.items > LARGE_ITEMS;
  }

  /** Root fields already counted (a compiled run that falls back to graphql-js resolves them again). */
  private readonly counted = new Set<string>();

  /**
   * Counts the `count` records of the root list answered under `key` (its response key: an alias counts on
   * its own) into the result, before they are read. Over the limit it throws RESULT_TOO_LARGE; a large
   * answer first waits for its request's turn (up to `waitMs`, then LargeAnswersBusy).
   */
  async admitList(key: string, count: number): Promise<void> {
    if (this.refused) throw this.refused;
    if (!this.counted.has(key)) {
      this.counted.add(key);
      this.count(count);
    }
    if (!this.large) return;
    this.asked ??= this.answers.turn().then((release) => this.hold(release));
    await this.asked;
  }

  /**
   * Counts `count` records already read (nested lists) into the result; throws RESULT_TOO_LARGE over the
   * limit. Records that make the answer large take a turn now, or the request is refused (LargeAnswersBusy,
   * a 503): they are already in memory, and waiting would only hold them longer.
   */
  take(count: number): void {
    this.count(count);
    if (!this.large || this.asked) return;
    const release = this.answers.tryTurn();
    if (!release) throw (this.refused = this.answers.busy());
    this.hold(release);
    this.asked = Promise.resolve();
  }

  private count(count: number): void {
    this.items += count;
    const { maxItems } = this.answers.settings;
    if (this.items > maxItems) {
      throw new GraphQLError(`The result would hold more than ${maxItems} records (GRAPHQL_MAX_RESULT_ITEMS): ask for fewer fields with lists, or page through the REST collection with limit and offset.`, {
        extensions: { code: 'RESULT_TOO_LARGE' },
      });
    }
  }

  private hold(release: () => void): void {
    if (this.closed) release();
    else this.release = release;
  }

  /** The request is over (its answer written, or its connection closed): its turn goes to the next. */
  done(): void {
    this.closed = true;
    this.release?.();
  }
}
