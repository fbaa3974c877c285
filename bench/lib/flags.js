'use strict';
// The command-line flags of the bench's scripts: `--name=value` as { name: 'value' }, a bare `--name` as { name: undefined }
// (so `'name' in flags` says it was given); an `=` inside the value stays in it.

/** The `--` flags of `argv`, by name. */
function flagsOf(argv) {
  return Object.fromEntries(argv.filter((a) => a.startsWith('--')).map((a) => a.slice(2).split(/=(.*)/s).slice(0, 2)));
}

module.exports = { flagsOf };
