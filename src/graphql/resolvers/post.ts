import type { PostResolvers } from '../../../generated/graphql';

/** `parent` is the stored PostRecord; its comments come through the request's batch loader. */
export const Post: PostResolvers = {
  comments: (post, _args, { loaders }) => loaders.commentsByPost.load(post.id),
};
