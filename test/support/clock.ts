/**
 * The wall clock (`Date`) as the test's own: `useTestClock()` (in a `beforeEach`, or at the start of a test) stops it,
 * and it moves only when the test moves it (`advanceClock(ms)`); `useRealClock()` gives it back. Timers, I/O and
 * `performance` run as usual, so HTTP requests are served as always. For behaviour that depends on elapsed wall time
 * (a rate-limit window, a key's time to live): the test decides when the time has passed, whatever the machine's
 * speed, and nothing the test asserts holds only because the machine was fast enough.
 */
const NOT_FAKED = [
  'hrtime',
  'nextTick',
  'performance',
  'queueMicrotask',
  'requestAnimationFrame',
  'cancelAnimationFrame',
  'requestIdleCallback',
  'cancelIdleCallback',
  'setImmediate',
  'clearImmediate',
  'setInterval',
  'clearInterval',
  'setTimeout',
  'clearTimeout',
] as const;

export function useTestClock(start = 1_000_000_000_000): void {
  jest.useFakeTimers({ now: start, doNotFake: [...NOT_FAKED] });
}

export function advanceClock(ms: number): void {
  jest.setSystemTime(Date.now() + ms);
}

export function useRealClock(): void {
  jest.useRealTimers();
}
