// The GraphQL side of the breaking-change gate: @graphql-inspector's own classification (the engine
// behind `graphql-inspector diff`), plus whether each removed field, argument or enum value carried
// @deprecated in the base, which the gate needs to allow the removal.
import { CriticalityLevel, diff } from '@graphql-inspector/core';
import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, type GraphQLSchema } from 'graphql';
import type { Change, Level } from './change';

const LEVELS: Record<CriticalityLevel, Level> = {
  [CriticalityLevel.Breaking]: 'breaking',
  [CriticalityLevel.Dangerous]: 'dangerous',
  [CriticalityLevel.NonBreaking]: 'safe',
};

/** Removals of things that can carry @deprecated: the deprecation workflow applies to them. */
const REMOVALS = new Set(['FIELD_REMOVED', 'INPUT_FIELD_REMOVED', 'FIELD_ARGUMENT_REMOVED', 'ENUM_VALUE_REMOVED']);

/** Whether `Type.field`, `Type.field.argument` or `Enum.VALUE` carries @deprecated in the schema. */
function isDeprecated(schema: GraphQLSchema, path: string): boolean {
  const [typeName, member, argument] = path.split('.');
  const type = schema.getType(typeName);
  if (isEnumType(type)) return type.getValue(member)?.deprecationReason != null;
  if (!isObjectType(type) && !isInterfaceType(type) && !isInputObjectType(type)) return false;
  const field = type.getFields()[member];
  if (argument === undefined) return field?.deprecationReason != null;
  return (field && 'args' in field ? field.args : []).find((a) => a.name === argument)?.deprecationReason != null;
}

export async function diffGraphql(base: GraphQLSchema, head: GraphQLSchema): Promise<Change[]> {
  const changes = await diff(base, head);
  return changes.map((c) => ({
    contract: 'graphql' as const,
    level: LEVELS[c.criticality.level],
    where: c.path ?? '',
    message: c.message,
    ...(REMOVALS.has(c.type) && { removal: true, deprecated: isDeprecated(base, c.path ?? '') }),
  }));
}
