import type { PostResolvers } from '../../../generated/graphql';

/** `parent` is the stored PostRecord; its comments load with its siblings' (one storage call per group). */
export const Post: PostResolvers = {
  comments: (post, _args, { loaders }, { path }) => loaders.commentsOf(post, path),
};
