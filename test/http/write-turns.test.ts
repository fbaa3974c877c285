import type { IncomingMessage, ServerResponse } from 'node:http';
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
    const socket = {};
    const request = { socket } as unknown as IncomingMessage;
    const passed = jest.fn();
    turns.arrived(request, {} as ServerResponse, passed);
    expect(passed).toHaveBeenCalledTimes(1);
    await nextIteration();
    expect(went).toEqual([0]);
    await nextIteration();
    expect(went).toEqual([0, 1, 2, 3]);
    // A second request on the same connection is no new connection: the turn is a whole one.
    turns.arrived(request, {} as ServerResponse, passed);
    await nextIteration();
    expect(went).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(passed).toHaveBeenCalledTimes(2);
  });
});
