'use strict';
// json-server 0.17 as its CLI sets it up (default middlewares, request logger on; stdout goes to
// /dev/null), serving the same books and tasks from memory (no file writes, the faster setup).
const jsonServer = require('json-server');
const { readFileSync } = require('node:fs');
const { settings } = require('./data');

const { port, host, seedFile } = settings();
const seed = JSON.parse(readFileSync(seedFile, 'utf8'));
const server = jsonServer.create();
server.use(jsonServer.defaults());
server.use(jsonServer.router({ books: seed.books, tasks: seed.tasks, todos: seed.todos }));
server.listen(port, host);
