import { Agent, get as httpGet } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { runPhases } from '../../src/http/phases';
import type { Phase } from '../../src/http/request-state';
import { createLogger } from '../../src/logger';
import { WriteTurns } from '../../src/http/write-turns';

const nextIteration = () => new Promise((resolve) => setImmediate(resolve));

describe('WriteTurns (chunks of big answers share the event loop)', () => {
  it('when more writers wait than a turn takes, then each turn of the event loop lets `perTurn` of them go, first come first served', async () => {
    const turns = new WriteTurns(2);
    const went: number[] = [];
    for (let i = 0; i < 5; i++) void turns.next().then(() => went.push(i));
    expect(went).toEqual([]);
    await nextIteration();
    expect(went).toEqual([0, 1]);
    await nextIteration();
    expect(went).toEqual([0, 1, 2, 3]);
    await nextIteration();
    expect(went).toEqual([0, 1, 2, 3, 4]);
  });

  it('when a writer asks again in its turn, then it waits for a later turn, behind those already waiting', async () => {
    const turns = new WriteTurns(1);
    const went: string[] = [];
    void turns.next().then(() => {
      went.push('a1');
      void turns.next().then(() => went.push('a2'));
    });
    void turns.next().then(() => went.push('b1'));
    await nextIteration();
    expect(went).toEqual(['a1']);
    await nextIteration();
    expect(went).toEqual(['a1', 'b1']);
    await nextIteration();
    expect(went).toEqual(['a1', 'b1', 'a2']);
  });

  describe('on the test\'s clock (performance.now, setTimeout and setImmediate faked: time passes when the test says)', () => {
    beforeEach(() => jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask'] }));
    afterEach(() => jest.useRealTimers());

    it('while requests come on connections not seen before, then no answer builds and no list read starts until none came for `quietMs`', async () => {
      const turns = new WriteTurns(3, { quietMs: 300, holdMs: 60_000 });
      const went: string[] = [];
      for (let i = 0; i < 5; i++) void turns.next().then(() => went.push(`build ${i}`));
      expect(turns.start()).toBeUndefined();
      turns.connected();
      const started = turns.start();
      expect(started).toBeInstanceOf(Promise);
      void started!.then(() => went.push('start'));
      // The first turn of a burst lets one of each go (none had a turn for `holdMs`); then the burst holds them.
      await jest.advanceTimersByTimeAsync(0);
      expect(went).toEqual(['start', 'build 0']);
      void turns.start()!.then(() => went.push('start 2'));
      // Five more arrivals, 10 ms apart: the burst goes on until 300 ms after the last (at 50 ms).
      for (let i = 0; i < 5; i++) {
        await jest.advanceTimersByTimeAsync(10);
        turns.connected();
      }
      await jest.advanceTimersByTimeAsync(299);
      expect(went).toEqual(['start', 'build 0']);
      await jest.advanceTimersByTimeAsync(2);
      expect(went).toEqual(['start', 'build 0', 'start 2', 'build 1', 'build 2', 'build 3', 'build 4']);
      expect(turns.start()).toBeUndefined();
    });

    it('when connections keep coming, then one answer still builds every `holdMs`', async () => {
      const turns = new WriteTurns(4, { quietMs: 1_000, holdMs: 40 });
      let built = 0;
      const build = (): void => {
        built++;
        void turns.next().then(build);
      };
      void turns.next().then(build);
      turns.connected();
      const arrivals = setInterval(turns.connected, 5);
      try {
        // Builds at 0, 40, ..., 360 ms: one per `holdMs`, where without arrivals it would be one per turn of the loop.
        await jest.advanceTimersByTimeAsync(399);
      } finally {
        clearInterval(arrivals);
      }
      expect(built).toBe(10);
    });
  });

  it('when the service sees requests, then it tells the write turns of the first request of each connection only', async () => {
    const connected = jest.fn();
    const answer: Phase = ({ res }) => void res.end();
    const pass: Phase = (_state, next) => next();
    const handler = runPhases(
      { route: pass, protect: pass, dispatch: answer, readBody: pass, validate: pass, handle: pass, write: pass },
      { logger: createLogger('silent'), connected },
    );
    const app = express().use(handler);
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
      const agent = new Agent({ keepAlive: true, maxSockets: 1 });
      const get = () => new Promise<void>((resolve, reject) => httpGet(url, { agent }, (res) => res.resume().on('end', resolve)).on('error', reject));
      await get();
      await get();
      expect(connected).toHaveBeenCalledTimes(1);
      agent.destroy();
      await get();
      expect(connected).toHaveBeenCalledTimes(2);
    } finally {
      server.close();
    }
  });
});
