'use strict';
// The targets (issue 6), as medians of service/peer ratios. Reported, never asserted.
const TARGETS = {
  'get-book': { express: 0.8, 'json-server': 3 },
  'post-book': { 'json-server': 3 },
  'gql-books': { yoga: 1.5 },
  'gql-nested': { yoga: 1.5 },
};

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

module.exports = { TARGETS, check, MEMORY_TARGET: 1.2 };
