'use strict';
// Checks a JSON array of records as its text arrives, without holding the whole of it: hundreds of clients
// reading lists of several MiB at once would otherwise hold all of them in the load test's own memory.

const SPECIAL = /["\\{}[\]]/g;

/**
 * Feed it an answer's text with `push` (in any pieces), then `end()`: `ok` when the text is one JSON array
 * whose every element is an object that parses, with an integer `id` above the one before it (id order),
 * and `count` the elements. The array's framing is followed outside the records, JSON.parse checks each record.
 */
class ListChecker {
  constructor() {
    this.carry = ''; // the unfinished record's text, from its `{`
    this.scanned = 0; // how much of `carry` was scanned
    this.depth = 0; // 0 before `[` (and after `]`), 1 between records, more inside one
    this.inString = false;
    this.closed = false;
    this.count = 0;
    this.lastId = -Infinity;
    this.error = undefined;
  }

  push(text) {
    if (this.error) return;
    const buf = this.carry + text;
    let i = this.scanned;
    let start = this.depth > 1 ? 0 : -1;
    while (i < buf.length && !this.error) {
      if (this.depth > 1) {
        SPECIAL.lastIndex = i;
        const match = SPECIAL.exec(buf);
        if (!match) {
          i = buf.length;
          break;
        }
        i = match.index;
        const c = buf[i];
        if (c === '\\' && this.inString) {
          if (i + 1 >= buf.length) break; // the escaped character is in the next piece
          i += 2;
          continue;
        }
        i++;
        if (c === '"') this.inString = !this.inString;
        else if (this.inString) continue;
        else if (c === '{' || c === '[') this.depth++;
        else if ((c === '}' || c === ']') && --this.depth === 1) this.record(buf.slice(start, i));
        continue;
      }
      const c = buf[i];
      i++;
      if (c === ' ' || c === '\n' || c === '\r' || c === '\t') continue;
      if (this.closed) this.fail(`text after the array's end: ${c}`);
      else if (this.depth === 0 && c === '[' && this.count === 0) this.depth = 1;
      else if (this.depth === 1 && c === '{' && this.expectRecord !== false) {
        this.depth = 2;
        start = i - 1;
        this.expectRecord = false;
      } else if (this.depth === 1 && c === ',' && this.expectRecord === false) this.expectRecord = true;
      else if (this.depth === 1 && c === ']' && this.expectRecord !== true) {
        this.depth = 0;
        this.closed = true;
      } else this.fail(`unexpected "${c}" after ${this.count} records`);
    }
    // An unfinished record is carried to the next piece; a backslash at the very end is scanned again with it.
    this.carry = this.depth > 1 && !this.error ? buf.slice(start) : '';
    this.scanned = this.carry ? i - start : 0;
  }

  record(text) {
    let value;
    try {
      value = JSON.parse(text);
    } catch (err) {
      return this.fail(`record ${this.count + 1} does not parse: ${err.message}`);
    }
    if (!Number.isInteger(value?.id)) return this.fail(`record ${this.count + 1} has no integer id`);
    if (value.id <= this.lastId) return this.fail(`record ${this.count + 1} (id ${value.id}) out of id order after id ${this.lastId}`);
    this.lastId = value.id;
    this.count++;
  }

  fail(message) {
    this.error ??= message;
  }

  end() {
    if (!this.error && !this.closed) this.fail(`the array does not end (${this.count} records read)`);
    return { ok: !this.error, count: this.count, error: this.error };
  }
}

module.exports = { ListChecker };
