/** A failed expectation inside a check: its message becomes the check's reason. */
export class CheckFailure extends Error {}

export function expect(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message);
}

/** Runs named checks one at a time and prints one line per check, then `N passed, N failed`. */
export class Reporter {
  passed = 0;
  failed = 0;
  readonly failures: string[] = [];

  constructor(private readonly write: (line: string) => void) {}

  /** Runs one check. A thrown error fails it (its message is the reason); the run goes on. */
  async check(name: string, fn: () => Promise<void> | void): Promise<boolean> {
    try {
      await fn();
      this.passed += 1;
      this.write(`PASS ${name}`);
      return true;
    } catch (err) {
      this.failed += 1;
      const reason = err instanceof CheckFailure ? err.message : `unexpected error: ${(err as Error)?.message ?? String(err)}`;
      const line = `FAIL ${name}: ${reason.replace(/\s+/g, ' ').slice(0, 500)}`;
      this.failures.push(line);
      this.write(line);
      return false;
    }
  }

  summary(): string {
    return `${this.passed} passed, ${this.failed} failed`;
  }
}
