import type { Resolvers } from '../../../generated/graphql';
import { Mutation } from './mutation';
import { Post } from './post';
import { Query } from './query';
import { Todo } from './todo';
import { User } from './user';

/** Every resolver, one file per type. Book and Comment use the default resolvers (their records have the fields). */
export const resolvers = { Query, Mutation, User, Post, Todo } satisfies Resolvers;
