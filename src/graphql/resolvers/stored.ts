import type { Resolvers } from '../../../generated/graphql';
import type { ContractModel } from '../../store/model';

/**
 * `resolvers` with the fields shown under another name than the stored field's, from schema.graphql's
 * `@stored(field:)` as the model reads it (src/store/model-queries.ts): `Todo.title` answers the stored `text`. The
 * one declaration of such a renaming; filters and sorts on the field read the same one.
 */
export function withStoredFields(resolvers: Resolvers, model: ContractModel): Resolvers {
  const merged: Record<string, unknown> = { ...resolvers };
  for (const [type, resource] of model.byType) {
    if (resource.graphqlNames.size === 0) continue;
    const fields: Record<string, unknown> = { ...(merged[type] as object) };
    for (const [field, stored] of resource.graphqlNames) fields[field] ??= (record: Record<string, unknown>) => record[stored];
    merged[type] = fields;
  }
  return merged as Resolvers;
}
