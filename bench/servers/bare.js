'use strict';
// The ceiling: node:http answering the same JSON as the service for the benchmarked routes,
// with no validation, no logging and no framework.
const http = require('node:http');
const { loadRecords, settings } = require('./data');

const { port, host, seedFile } = settings();
const db = loadRecords(seedFile);
const BOOK = /^\/books\/(\d+)$/;
const TASK = /^\/tasks\/(\d+)$/;

function send(res, status, body, headers = {}) {
  const text = body === undefined ? '' : JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

function readJson(req, done) {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    try {
      done(JSON.parse(Buffer.concat(chunks).toString('utf8')));
    } catch {
      done(undefined);
    }
  });
}

http
  .createServer((req, res) => {
    const url = new URL(req.url, 'http://x');
    const path = url.pathname;
    let m;
    if (req.method === 'GET' && path === '/books') {
      const limit = url.searchParams.get('limit');
      const offset = url.searchParams.get('offset');
      return send(res, 200, db.listBooks(limit ? Number(limit) : undefined, offset ? Number(offset) : 0));
    }
    if (req.method === 'GET' && (m = BOOK.exec(path))) {
      const book = db.getBook(Number(m[1]));
      return book ? send(res, 200, book) : send(res, 404, { error: 'Not found' });
    }
    if (req.method === 'DELETE' && (m = BOOK.exec(path))) {
      return db.deleteBook(Number(m[1])) ? send(res, 204) : send(res, 404, { error: 'Not found' });
    }
    if (req.method === 'POST' && path === '/books') {
      return readJson(req, (body) => {
        if (!body || typeof body.title !== 'string') return send(res, 400, { error: 'title is required' });
        const book = db.createBook(body);
        send(res, 201, book, { location: `/books/${book.id}` });
      });
    }
    if (req.method === 'PUT' && (m = TASK.exec(path))) {
      return readJson(req, (body) => {
        if (!body) return send(res, 400, { error: 'Invalid JSON' });
        const task = db.updateTask(Number(m[1]), body);
        return task ? send(res, 200, task) : send(res, 404, { error: 'Not found' });
      });
    }
    send(res, 404, { error: 'Not found' });
  })
  .listen(port, host);
