import type { UserResolvers } from '../../../generated/graphql';

/** `parent` is the stored UserRecord; its posts come through the request's batch loader. */
export const User: UserResolvers = {
  posts: (user, _args, { loaders }) => loaders.postsByUser.load(user.id),
};
