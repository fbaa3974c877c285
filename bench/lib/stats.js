'use strict';

function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const at = (sorted.length - 1) * q;
  const lo = Math.floor(at);
  const hi = Math.ceil(at);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (at - lo);
}

const median = (values) => quantile(values, 0.5);

function summary(values) {
  return { median: median(values), min: Math.min(...values), max: Math.max(...values), q1: quantile(values, 0.25), q3: quantile(values, 0.75), n: values.length };
}

module.exports = { quantile, median, summary };
