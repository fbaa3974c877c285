'use strict';
// Seed files in seed/default.json's format, with N books and a larger user/post/comment graph.
const { readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');

const DEFAULT_SEED = path.join(__dirname, '..', '..', 'seed', 'default.json');
const WORDS = ['River', 'Stone', 'Glass', 'Winter', 'Garden', 'Signal', 'Harbor', 'Engine', 'Lantern', 'Orchard'];

/** The user/post/comment graph of every generated seed (the GraphQL workloads' data). */
const GRAPH = { users: 20, postsPerUser: 5, commentsPerPost: 3 };

function makeSeed(bookCount, { users, postsPerUser, commentsPerPost } = GRAPH) {
  const base = JSON.parse(readFileSync(DEFAULT_SEED, 'utf8'));
  const books = [];
  for (let id = 1; id <= bookCount; id += 1) {
    books.push({ id, title: `${WORDS[id % 10]} ${WORDS[(id * 7) % 10]} volume ${id}`, pages: 50 + ((id * 37) % 900) });
  }
  const userList = [];
  const posts = [];
  const comments = [];
  for (let u = 1; u <= users; u += 1) {
    userList.push({ id: u, name: `User ${u}`, email: `user${u}@example.com` });
    for (let p = 0; p < postsPerUser; p += 1) {
      const postId = posts.length + 1;
      posts.push({ id: postId, userId: u, title: `Post ${postId} by user ${u}`, body: `Body of post ${postId}.` });
      for (let c = 0; c < commentsPerPost; c += 1) {
        const commentId = comments.length + 1;
        comments.push({ id: commentId, postId, body: `Comment ${commentId} on post ${postId}.` });
      }
    }
  }
  return { ...base, books, users: userList, posts, comments };
}

/** Writes the seed for `bookCount` books into `dir` and returns its path. */
function seedFile(dir, bookCount) {
  const file = path.join(dir, `seed-${bookCount}-books.json`);
  writeFileSync(file, JSON.stringify(makeSeed(bookCount)));
  return file;
}

module.exports = { makeSeed, seedFile, GRAPH };
