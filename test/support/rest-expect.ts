import type { Response } from 'supertest';

/**
 * Assertions for the two error formats of docs/contract.md §6. Response validation already checks
 * JSON bodies against the spec's Error schema; these also check the media type and, for plain text,
 * the one-line message (res.send bodies are not seen by the response validator).
 */
export function expectJsonError(res: Response, status: number): { error: string; details?: { path: string; message: string }[] } {
  expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status, type: 'application/json; charset=utf-8' });
  expect(typeof res.body.error).toBe('string');
  expect(res.body.error.length).toBeGreaterThan(0);
  for (const key of Object.keys(res.body)) expect(['error', 'details']).toContain(key);
  expectNoInternals(res.text);
  return res.body;
}

export function expectTextError(res: Response, status: number): string {
  expect({ status: res.status, type: res.headers['content-type'] }).toEqual({ status, type: 'text/plain; charset=utf-8' });
  expect(res.text.length).toBeGreaterThan(0);
  expect(res.text).not.toMatch(/[\r\n]/);
  expectNoInternals(res.text);
  return res.text;
}

/** No stack frames or file-system paths reach a client. */
export function expectNoInternals(text: string): void {
  expect(text).not.toMatch(/\bat [\w.<>]+ \(|node_modules|\/work\/|\.ts:\d+|\.js:\d+/);
}

export const ids = (list: { id: number }[]): number[] => list.map((record) => record.id);
