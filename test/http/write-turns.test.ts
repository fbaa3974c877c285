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

  it('when a request comes on a connection not seen before, then the next turn lets one writer go, and the turn after it `perTurn` again', async () => {
    const turns = new WriteTurns(3);
    const went: number[] = [];
    for (let i = 0; i < 8; i++) void turns.next().then(() => went.push(i));
    turns.connected();
    await nextIteration();
    expect(went).toEqual([0]);
    await nextIteration();
    expect(went).toEqual([0, 1, 2, 3]);
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
