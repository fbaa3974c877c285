import type { Resolvers } from '../../../generated/graphql';
import { specModel } from '../../store/model';
import { Mutation } from './mutation';
import { Post } from './post';
import { Query } from './query';
import { withStoredFields } from './stored';
import { User } from './user';

/**
 * Every resolver, one file per type. Book and Comment use the default resolvers (their records have the fields);
 * a field shown under another name than its stored one (`Todo.title`, schema.graphql's `@stored`) answers that field (stored.ts).
 */
export const resolvers: Resolvers = withStoredFields({ Query, Mutation, User, Post } satisfies Resolvers, specModel());
