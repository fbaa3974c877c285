import type { UserResolvers } from '../../../generated/graphql';

/** `parent` is the stored UserRecord; its posts load with its siblings' (one storage call per group). */
export const User: UserResolvers = {
  posts: (user, _args, { loaders }, { path }) => loaders.postsOf(user, path),
};
