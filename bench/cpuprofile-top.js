'use strict';
// node bench/cpuprofile-top.js FILE.cpuprofile [N] [SKIP_MS]: the top self-time functions and areas,
// leaving out the first SKIP_MS of the profile (start-up).
const { readFileSync } = require('node:fs');
const { summarise, formatSummary } = require('./lib/cpuprofile');

const [file, n = '20', skip = '0'] = process.argv.slice(2);
if (!file) {
  console.error('usage: node bench/cpuprofile-top.js FILE.cpuprofile [N] [SKIP_MS]');
  process.exit(2);
}
console.log(formatSummary(summarise(JSON.parse(readFileSync(file, 'utf8')), Number(n), Number(skip)), Number(n)));
