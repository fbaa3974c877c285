'use strict';
// Fastify 5 as a user would write the same routes by hand: JSON-schema validation of params and
// bodies (the schemas are openapi.yaml's Id, Text, Pages, Book and BookCreate, written out) and
// response schemas (Fastify serialises with fast-json-stringify from them), over the same records
// as the other REST peers (bench/servers/data.js). Logger, request ids and helmet: fastify-house.js.
const { loadRecords, settings } = require('./data');
const { houseFastify } = require('./fastify-house');

const { port, host, seedFile } = settings();
const db = loadRecords(seedFile);

const Id = { type: 'integer', minimum: 1, maximum: Number.MAX_SAFE_INTEGER };
const Text = { type: 'string', minLength: 1, maxLength: 1000, pattern: '^\\s*[^\\s\\u0000\\uD800-\\uDFFF][^\\u0000\\uD800-\\uDFFF]*$' };
const Pages = { type: 'integer', minimum: 0, maximum: 2147483647 };
const Book = { type: 'object', required: ['id', 'title', 'pages'], additionalProperties: false, properties: { id: Id, title: Text, pages: Pages } };
const BookCreate = { type: 'object', required: ['title'], additionalProperties: false, properties: { title: Text, pages: Pages } };
const TaskUpdate = { type: 'object', additionalProperties: false, properties: { title: Text, done: { type: 'boolean' } } };
const Task = { type: 'object', required: ['id', 'title', 'done'], properties: { id: Id, title: Text, done: { type: 'boolean' } } };
const Error = { type: 'object', required: ['error'], properties: { error: { type: 'string' } } };
const idParams = { type: 'object', required: ['id'], properties: { id: Id } };
const page = { type: 'object', additionalProperties: false, properties: { limit: { type: 'integer', minimum: 1, maximum: 1000 }, offset: { type: 'integer', minimum: 0 } } };

async function main() {
  // removeAdditional off: an unknown property is a 400, as openapi.yaml's additionalProperties: false says.
  const app = await houseFastify({ ajv: { customOptions: { removeAdditional: false } } });
  const notFound = (reply) => reply.code(404).send({ error: 'Not found' });
  app.get('/books', { schema: { querystring: page, response: { 200: { type: 'array', items: Book } } } }, async (req) => db.listBooks(req.query.limit, req.query.offset ?? 0));
  app.get('/books/:id', { schema: { params: idParams, response: { 200: Book, 404: Error } } }, async (req, reply) => db.getBook(req.params.id) ?? notFound(reply));
  app.post('/books', { schema: { body: BookCreate, response: { 201: Book } } }, async (req, reply) => {
    const book = db.createBook(req.body);
    return reply.code(201).header('location', `/books/${book.id}`).send(book);
  });
  app.delete('/books/:id', { schema: { params: idParams } }, async (req, reply) => (db.deleteBook(req.params.id) ? reply.code(204).send() : notFound(reply)));
  app.put('/tasks/:id', { schema: { params: idParams, body: TaskUpdate, response: { 200: Task, 404: Error } } }, async (req, reply) => db.updateTask(req.params.id, req.body) ?? notFound(reply));
  await app.listen({ port, host });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
