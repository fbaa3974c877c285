'use strict';
// fastify-openapi-glue on this project's own openapi.yaml: the contract-first Fastify plugin. It
// makes one Fastify route per operation, with the spec's parameter, body and response schemas
// (validation by Fastify's Ajv, serialisation by fast-json-stringify). Handlers for the operations
// the benchmark calls, over the same records as the other REST peers (bench/servers/data.js); every
// other operation answers 501. Logger, request ids and helmet: fastify-house.js.
const path = require('node:path');
const { loadRecords, settings } = require('./data');
const { houseFastify } = require('./fastify-house');

const { port, host, seedFile } = settings();
const db = loadRecords(seedFile);
const notFound = (reply) => reply.code(404).send({ error: 'Not found' });

const handlers = {
  listBooks: async (req) => db.listBooks(req.query.limit, req.query.offset ?? 0),
  getBook: async (req, reply) => db.getBook(req.params.id) ?? notFound(reply),
  createBook: async (req, reply) => {
    const book = db.createBook(req.body);
    return reply.code(201).header('location', `/books/${book.id}`).send(book);
  },
  deleteBook: async (req, reply) => (db.deleteBook(req.params.id) ? reply.code(204).send() : notFound(reply)),
  updateTask: async (req, reply) => db.updateTask(req.params.id, req.body) ?? notFound(reply),
};
const notImplemented = async (req, reply) => reply.code(501).send({ error: 'Not implemented in this peer' });

async function main() {
  const { default: openapiGlue } = await import('fastify-openapi-glue');
  const app = await houseFastify({ ajv: { customOptions: { removeAdditional: false } } });
  await app.register(openapiGlue, {
    specification: path.join(__dirname, '..', '..', 'openapi.yaml'),
    operationResolver: (operationId) => handlers[operationId] ?? notImplemented,
  });
  await app.listen({ port, host });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
