import { GraphQLError } from 'graphql';
import type { MutationResolvers } from '../../../generated/graphql';
import { TEXT_PATTERN, TEXT_RULE, type TextLimits } from '../../text-rule';

/** Something@something.tld, no spaces, at most 254 characters: plausible, not proven. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

function badInput(argumentName: string, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', argumentName } });
}

/** The contract's text rule, as REST's validator applies it from openapi.yaml's `Text` (the limit comes from there too, through the context). */
function requireText(argumentName: string, value: string, text: TextLimits): void {
  switch (text.problem(value)) {
    case 'blank':
      throw badInput(argumentName, `${argumentName} must not be blank.`);
    case 'characters':
      throw badInput(argumentName, `${argumentName} ${TEXT_RULE}.`);
    case 'too long':
      throw badInput(argumentName, `${argumentName} must be at most ${text.maxLength} characters.`);
  }
}

/** Writes. Input is checked before anything is stored; a rejected mutation stores nothing. */
export const Mutation: MutationResolvers = {
  createUser: async (_parent, { name, email }, { store, text }) => {
    requireText('name', name, text);
    if (email.length > 254 || !EMAIL.test(email) || !TEXT_PATTERN.test(email)) throw badInput('email', 'email must be a plausible e-mail address.');
    return store.users.create({ name, email });
  },
  addTodo: async (_parent, { title }, { store, text }) => {
    requireText('title', title, text);
    // `done` is the contract's default (false).
    return store.todos.create({ text: title });
  },
};
