import { getEventListeners } from 'node:events';
import { OverloadedError, StorageUnavailableError } from '../../src/store/errors';
import { WaitQueue } from '../../src/store/postgres/queue';

/** A task that runs until release() is called, recording that it started. */
function gate() {
  let release!: () => void;
  const done = new Promise<void>((resolve) => (release = resolve));
  const state = { started: false };
  const task = async () => {
    state.started = true;
    await done;
    return 'done';
  };
  return { task, release, state };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('WaitQueue (the bounded wait for a storage connection)', () => {
  it('when fewer tasks than slots run, then each starts at once and none waits', async () => {
    const queue = new WaitQueue({ size: 2, limit: 0, timeoutMs: 1000 });
    const [a, b] = [gate(), gate()];
    const runs = [queue.run(a.task), queue.run(b.task)];
    await tick();
    expect([a.state.started, b.state.started, queue.waiting]).toEqual([true, true, 0]);
    a.release();
    b.release();
    await expect(Promise.all(runs)).resolves.toEqual(['done', 'done']);
  });

  it('when every slot is taken, then tasks wait and start in arrival order as slots free', async () => {
    const queue = new WaitQueue({ size: 1, limit: 10, timeoutMs: 60000 });
    const order: string[] = [];
    const first = gate();
    const running = queue.run(first.task);
    const waiting = ['b', 'c', 'd'].map((name) => queue.run(async () => void order.push(name)));
    await tick();
    expect(queue.waiting).toBe(3);
    expect(order).toEqual([]);
    first.release();
    await Promise.all([running, ...waiting]);
    expect(order).toEqual(['b', 'c', 'd']);
    expect(queue.waiting).toBe(0);
  });

  it('when the queue is full, then one more task fails at once with OverloadedError and never runs', async () => {
    const queue = new WaitQueue({ size: 1, limit: 1, timeoutMs: 60000 });
    const first = gate();
    const running = queue.run(first.task);
    const queued = queue.run(async () => 'queued');
    let ran = false;
    await expect(queue.run(async () => void (ran = true))).rejects.toBeInstanceOf(OverloadedError);
    expect(ran).toBe(false);
    first.release();
    await expect(Promise.all([running, queued])).resolves.toEqual(['done', 'queued']);
  });

  it('when a task waits longer than the timeout, then it fails with OverloadedError, never runs, and leaves the queue', async () => {
    jest.useFakeTimers();
    try {
      const queue = new WaitQueue({ size: 1, limit: 5, timeoutMs: 500 });
      const first = gate();
      const running = queue.run(first.task);
      let ran = false;
      const late = queue.run(async () => void (ran = true));
      const outcome = late.catch((err: unknown) => err);
      jest.advanceTimersByTime(499);
      expect(queue.waiting).toBe(1);
      jest.advanceTimersByTime(1);
      expect(await outcome).toBeInstanceOf(OverloadedError);
      expect(queue.waiting).toBe(0);
      first.release();
      await running;
      expect(ran).toBe(false);
    } finally {
      jest.useRealTimers();
    }
  });

  it("when a waiting task's signal aborts (the client went away), then it leaves the queue without running", async () => {
    const queue = new WaitQueue({ size: 1, limit: 5, timeoutMs: 60000 });
    const first = gate();
    const running = queue.run(first.task);
    const controller = new AbortController();
    let ran = false;
    const abandoned = queue.run(async () => void (ran = true), controller.signal).catch((err: unknown) => err);
    const next = queue.run(async () => 'next');
    await tick();
    expect(queue.waiting).toBe(2);
    controller.abort(new Error('client went away'));
    expect(((await abandoned) as Error).message).toBe('client went away');
    expect(queue.waiting).toBe(1);
    first.release();
    await expect(next).resolves.toBe('next');
    await running;
    expect(ran).toBe(false);
  });

  it('when a slot is freed by a failing task, then the next waiter still gets it', async () => {
    const queue = new WaitQueue({ size: 1, limit: 5, timeoutMs: 60000 });
    const failing = queue.run(async () => {
      await tick();
      throw new Error('bad statement');
    });
    const next = queue.run(async () => 'next');
    await expect(failing).rejects.toThrow('bad statement');
    await expect(next).resolves.toBe('next');
    expect(queue.waiting).toBe(0);
  });

  it('when storage is found unreachable, then failWaiting fails every waiting task with that error, and running ones finish', async () => {
    const queue = new WaitQueue({ size: 1, limit: 5, timeoutMs: 60000 });
    const first = gate();
    const running = queue.run(first.task);
    const waiting = [queue.run(async () => 'a'), queue.run(async () => 'b')].map((p) => p.catch((err: unknown) => err));
    await tick();
    const down = new StorageUnavailableError();
    queue.failWaiting(down);
    expect(await Promise.all(waiting)).toEqual([down, down]);
    expect(queue.waiting).toBe(0);
    first.release();
    await expect(running).resolves.toBe('done');
    await expect(queue.run(async () => 'after')).resolves.toBe('after');
  });

  describe('one abort listener per signal', () => {
    it('when 20 tasks of one request wait, then its signal has one abort listener (not one each: 11 would be a MaxListenersExceededWarning), gone with the last of them', async () => {
      const queue = new WaitQueue({ size: 1, limit: 50, timeoutMs: 60000 });
      const first = gate();
      const running = queue.run(first.task);
      const { signal } = new AbortController();
      const waiting = Array.from({ length: 20 }, (_, i) => queue.run(async () => i, signal));
      await tick();
      expect(queue.waiting).toBe(20);
      expect(getEventListeners(signal, 'abort')).toHaveLength(1);
      first.release();
      expect(await Promise.all(waiting)).toEqual(Array.from({ length: 20 }, (_, i) => i));
      await running;
      expect(getEventListeners(signal, 'abort')).toHaveLength(0);
    });

    it("when a request with many waiting tasks aborts, then all of them leave the queue unrun, and other requests' tasks stay", async () => {
      const queue = new WaitQueue({ size: 1, limit: 50, timeoutMs: 60000 });
      const first = gate();
      const running = queue.run(first.task);
      const gone = new AbortController();
      const other = new AbortController();
      let ran = 0;
      const abandoned = Array.from({ length: 12 }, () => queue.run(async () => void (ran += 1), gone.signal).catch((err: unknown) => err));
      const kept = queue.run(async () => 'kept', other.signal);
      await tick();
      gone.abort(new Error('client went away'));
      for (const outcome of await Promise.all(abandoned)) expect((outcome as Error).message).toBe('client went away');
      expect(queue.waiting).toBe(1);
      expect(getEventListeners(gone.signal, 'abort')).toHaveLength(0);
      first.release();
      await expect(kept).resolves.toBe('kept');
      await running;
      expect(ran).toBe(0);
    });
  });
});
