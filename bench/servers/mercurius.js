'use strict';
// Mercurius (GraphQL for Fastify) with the project's schema.graphql and the same in-memory resolvers
// as bench/servers/yoga.js: users -> posts -> comments come from maps grouped up front (no loader),
// so nesting costs no scans, exactly as for Yoga. With MERCURIUS_JIT=1 it runs with `jit: 1`
// (a query is compiled by graphql-jit from its first run on). Mercurius caches parsed and validated
// queries itself. Logger, request ids and helmet: fastify-house.js, as for the Fastify REST peers.
const path = require('node:path');
const { readFileSync } = require('node:fs');
const mercurius = require('mercurius');
const { settings } = require('./data');
const { houseFastify } = require('./fastify-house');

const { port, host, seedFile } = settings();
const seed = JSON.parse(readFileSync(seedFile, 'utf8'));
const schema = readFileSync(path.join(__dirname, '..', '..', 'schema.graphql'), 'utf8');
const groupBy = (list, key) => {
  const map = new Map();
  for (const r of list) map.set(r[key], [...(map.get(r[key]) || []), r]);
  return map;
};
const books = seed.books || [];
const users = seed.users || [];
const todos = seed.todos || [];
const postsByUser = groupBy(seed.posts || [], 'userId');
const commentsByPost = groupBy(seed.comments || [], 'postId');
let lastTodoId = Math.max(0, ...todos.map((t) => t.id));
let lastUserId = Math.max(0, ...users.map((u) => u.id));

const resolvers = {
  Query: {
    user: (_, { id }) => users.find((u) => String(u.id) === id) ?? null,
    users: () => users,
    book: (_, { id }) => books.find((b) => String(b.id) === id) ?? null,
    books: () => books,
    todos: () => todos,
  },
  Mutation: {
    createUser: (_, { name, email }) => {
      const user = { id: ++lastUserId, name, email };
      users.push(user);
      return user;
    },
    addTodo: (_, { title }) => {
      const todo = { id: ++lastTodoId, text: title, done: false };
      todos.push(todo);
      return todo;
    },
  },
  User: { posts: (u) => postsByUser.get(u.id) || [] },
  Post: { comments: (p) => commentsByPost.get(p.id) || [] },
  Todo: { title: (t) => t.text },
};

async function main() {
  const app = await houseFastify();
  await app.register(mercurius, { schema, resolvers, graphiql: false, ...(process.env.MERCURIUS_JIT === '1' && { jit: 1 }) });
  await app.listen({ port, host });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
