'use strict';
// The GraphQL peers' shared part: the project's schema.graphql and in-memory resolvers over the seed
// records (users -> posts -> comments grouped up front, so nesting costs no scans). yoga.js and
// mercurius.js serve exactly these, so their ratios differ only by the engine.
const path = require('node:path');
const { readFileSync } = require('node:fs');
const { settings } = require('./data');

const { port, host, seedFile } = settings();
const seed = JSON.parse(readFileSync(seedFile, 'utf8'));
const typeDefs = readFileSync(path.join(__dirname, '..', '..', 'schema.graphql'), 'utf8');
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

module.exports = { port, host, typeDefs, resolvers };
