'use strict';
// A plain express 5 app: the same routes and JSON, no middleware except express.json() on the
// routes that take a body. With APP_CLASSES=1 its server builds requests and responses with the app's
// prototypes, as the service's does (src/http/http-server.ts): the same express, minus the
// per-request Object.setPrototypeOf (expressjs/express#5998), with the service's own expressClasses.
const http = require('node:http');
const path = require('node:path');
// The service's express (the project's node_modules), whatever the peers' packages hold.
const express = require(require.resolve('express', { paths: [path.join(__dirname, '..', '..')] }));
const { loadRecords, settings } = require('./data');

const { port, host, seedFile } = settings();
const db = loadRecords(seedFile);
const app = express();
app.disable('x-powered-by');
app.set('etag', false);

const notFound = (res) => res.status(404).json({ error: 'Not found' });
app.get('/books', (req, res) => {
  const limit = req.query.limit ? Number(req.query.limit) : undefined;
  res.json(db.listBooks(limit, Number(req.query.offset ?? 0)));
});
app.get('/books/:id', (req, res) => {
  const book = db.getBook(Number(req.params.id));
  return book ? res.json(book) : notFound(res);
});
app.delete('/books/:id', (req, res) => (db.deleteBook(Number(req.params.id)) ? res.status(204).end() : notFound(res)));
app.post('/books', express.json(), (req, res) => {
  if (typeof req.body?.title !== 'string') return res.status(400).json({ error: 'title is required' });
  const book = db.createBook(req.body);
  res.status(201).location(`/books/${book.id}`).json(book);
});
app.put('/tasks/:id', express.json(), (req, res) => {
  const task = db.updateTask(Number(req.params.id), req.body ?? {});
  return task ? res.json(task) : notFound(res);
});
if (process.env.APP_CLASSES === '1') {
  // The build `npm run bench` makes first (bench/run.js refuses to start without it).
  const { expressClasses } = require('../../dist/src/http/perf/express-classes.js');
  http.createServer(expressClasses(app), app).listen(port, host);
} else {
  app.listen(port, host);
}
