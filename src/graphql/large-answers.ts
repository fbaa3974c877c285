import { GraphQLError, responsePathAsArray, type GraphQLResolveInfo } from 'graphql';

export interface LargeAnswerSettings {
  /** Most records one operation's result may hold (GRAPHQL_MAX_RESULT_ITEMS); more is a RESULT_TOO_LARGE error. */
  maxItems: number;
  /** Large answers being built or written at once (GRAPHQL_MAX_LARGE_ANSWERS). */
  slots: number;
  /** Longest wait for a turn (GRAPHQL_LARGE_ANSWER_WAIT_MS); then the request is a 503 with Retry-After. */
  waitMs: number;
}

/** Where a list sits in the result (a resolver's `info.path`). */
export type ResultPath = GraphQLResolveInfo['path'];

/** A result of more records than this is a large answer: it waits for a turn (a root list: before it is read). */
const LARGE_ITEMS = 1000;

/** The refusal of a large answer that found no turn in time: the endpoint answers 503 with Retry-After. */
export const NO_TURN = 'no-turn';

/**
 * Why a result was refused while it was being built: too many records (the error to answer, at the list
 * that went past the limit), or no turn for a large answer.
 */
export type Refusal = GraphQLError | typeof NO_TURN;

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
 * The bounds are checked at the level of the execution, not by errors thrown through resolvers: a list
 * asks its request's budget before it is read (root lists) or kept (nested lists); once the budget has
 * refused, every list of the request is answered empty without reading anything more, and the endpoint
 * answers the refusal instead of the result (src/graphql/endpoint.ts, `onOperation`).
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

  /** A turn now, if one is free and nobody waits for one: its release function; otherwise undefined. */
  tryTurn(): (() => void) | undefined {
    if (this.running >= this.settings.slots || this.waiting.size > 0) return undefined;
    this.running += 1;
    return once(this.release);
  }

  /** Resolves with a release function once a turn is free, or with undefined after `waitMs` without one. */
  turn(): Promise<(() => void) | undefined> {
    const now = this.tryTurn();
    if (now) return Promise.resolve(now);
    return new Promise((resolve) => {
      const start = () => {
        clearTimeout(timer);
        this.waiting.delete(start);
        resolve(once(this.release));
      };
      const timer = setTimeout(() => {
        this.waiting.delete(start);
        resolve(undefined);
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

/** What one request's result holds so far, its turn when it is a large answer, and its refusal if it was refused. */
export class ResultBudget {
  /** Records counted into the result. */
  items = 0;
  /** Set once the result is refused; it stays refused (a second run of the operation, src/graphql/execution.ts, reads nothing). */
  refusal?: Refusal;
  private release?: () => void;
  private asked?: Promise<void>;
  private closed = false;

  constructor(private readonly answers: LargeAnswers) {}

  /** Whether the result is a large answer: it holds more than LARGE_ITEMS records, and is written in chunks. */
  get large(): boolean {
    return this.items > LARGE_ITEMS;
  }

  /** Root fields already counted (a compiled run that falls back to graphql-js resolves them again). */
  private readonly counted = new Set<string>();

  /**
   * Counts the `count` records of the root list at `at` (its response key: an alias counts on its own) into
   * the result, before they are read: whether the list may be read. Not over the limit (the result is
   * refused RESULT_TOO_LARGE), and, for a large answer, once its request has a turn (waited for up to
   * `waitMs`; without one the result is refused NO_TURN).
   */
  async admitList(at: ResultPath, count: number): Promise<boolean> {
    if (this.refusal) return false;
    const key = String(at.key);
    if (!this.counted.has(key)) {
      this.counted.add(key);
      if (!this.count(count, at)) return false;
    }
    if (!this.large) return true;
    this.asked ??= this.answers.turn().then((release) => {
      if (release) this.hold(release);
      else this.refusal ??= NO_TURN;
    });
    await this.asked;
    return this.refusal === undefined;
  }

  /**
   * Counts `count` records already read (nested lists, first asked for at `at`) into the result: whether
   * they may be kept. Not over the limit, and, when they make the answer large, only with a turn taken now:
   * they are already in memory, and waiting would only hold them longer (without one, NO_TURN).
   */
  take(count: number, at?: ResultPath): boolean {
    if (this.refusal) return false;
    if (!this.count(count, at)) return false;
    if (!this.large || this.asked) return true;
    const release = this.answers.tryTurn();
    if (!release) {
      this.refusal = NO_TURN;
      return false;
    }
    this.hold(release);
    this.asked = Promise.resolve();
    return true;
  }

  private count(count: number, at: ResultPath | undefined): boolean {
    this.items += count;
    const { maxItems } = this.answers.settings;
    if (this.items <= maxItems) return true;
    this.refusal = new GraphQLError(`The result would hold more than ${maxItems} records (GRAPHQL_MAX_RESULT_ITEMS): ask for fewer fields with lists, or page through the REST collection with limit and offset.`, {
      path: at && responsePathAsArray(at),
      extensions: { code: 'RESULT_TOO_LARGE' },
    });
    return false;
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
