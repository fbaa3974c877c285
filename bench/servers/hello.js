'use strict';
// The calibration server: bare node:http answering every request with one fixed JSON line, nothing read, nothing
// logged. bench/lib/calibration.js drives it with the load generator at the start and at the end of a run: its rate
// tells whether the machine changed during the run, and how fast the load generator can go at all.
const http = require('node:http');
const { settings } = require('./data');

const { port, host } = settings();
const BODY = '{"hello":"world"}';
const HEADERS = { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(BODY) };

http
  .createServer((req, res) => {
    res.writeHead(200, HEADERS);
    res.end(BODY);
  })
  .listen(port, host);
