import { GraphQLError } from 'graphql';
import type { MutationResolvers } from '../../../generated/graphql';
import { TEXT_PATTERN, TEXT_RULE } from '../../text-rule';

/** The contract's text rule (same as REST's, src/text-rule.ts), and at most 1000 characters. */
const MAX_TEXT = 1000;
/** Something@something.tld, no spaces, at most 254 characters: plausible, not proven. */
const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

function badInput(argumentName: string, message: string): GraphQLError {
  return new GraphQLError(message, { extensions: { code: 'BAD_USER_INPUT', argumentName } });
}

function requireText(argumentName: string, value: string): void {
  if (!/\S/.test(value)) throw badInput(argumentName, `${argumentName} must not be blank.`);
  if (!TEXT_PATTERN.test(value)) throw badInput(argumentName, `${argumentName} ${TEXT_RULE}.`);
  // Characters are code points, as REST's maxLength counts them (an emoji is one, not two UTF-16 units).
  if ([...value].length > MAX_TEXT) throw badInput(argumentName, `${argumentName} must be at most ${MAX_TEXT} characters.`);
}

/** Writes. Input is checked before anything is stored; a rejected mutation stores nothing. */
export const Mutation: MutationResolvers = {
  createUser: async (_parent, { name, email }, { store }) => {
    requireText('name', name);
    if (email.length > 254 || !EMAIL.test(email) || !TEXT_PATTERN.test(email)) throw badInput('email', 'email must be a plausible e-mail address.');
    return store.users.create({ name, email });
  },
  addTodo: async (_parent, { title }, { store }) => {
    requireText('title', title);
    // `done` is the contract's default (false).
    return store.todos.create({ text: title });
  },
};
