import type { TodoResolvers } from '../../../generated/graphql';

/** `parent` is the stored TodoRecord, the one REST serves: GraphQL `title` is its `text`. */
export const Todo: TodoResolvers = {
  title: (todo) => todo.text,
};
