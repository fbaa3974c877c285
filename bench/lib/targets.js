'use strict';
// The issues' targets (issue 6, then issue 12's contract-first peers), as medians of service/peer
// ratios. Reported, never asserted.
const TARGETS = {
  'get-book': { express: 0.8, 'json-server': 3, 'fastify-openapi-glue': 0.8 },
  'post-book': { 'json-server': 3, 'fastify-openapi-glue': 0.8 },
  'gql-books': { yoga: 1.5, 'mercurius-jit': 1.0 },
  'gql-nested': { yoga: 1.5, 'mercurius-jit': 1.0 },
};

/** Peers added by issue 12; BENCHMARKS.md shows them in their own section. */
const CONTRACT_FIRST_PEERS = ['fastify', 'fastify-openapi-glue', 'mercurius', 'mercurius-jit'];

/** For a row: the target text and whether the median meets it (undefined when there is none). */
function check(row) {
  if (row.scaling) {
    const timeRatio = 1 / row.ratio.median;
    if (row.scaling.expect === 'flat') return { text: 'time ≤ 1.2× (req/s ratio ≥ 0.83)', met: timeRatio <= 1.2 };
    return { text: `time ≤ ${row.scaling.records}× (linear)`, met: timeRatio <= row.scaling.records };
  }
  const min = TARGETS[row.workload]?.[row.peer];
  return min === undefined ? { text: '—', met: undefined } : { text: `≥ ${min}×`, met: row.ratio.median >= min };
}

module.exports = { TARGETS, CONTRACT_FIRST_PEERS, check, MEMORY_TARGET: 1.2 };
