/** How a contract change affects existing clients. */
export type Level = 'breaking' | 'dangerous' | 'safe';

/** One classified change between two versions of a contract. */
export interface Change {
  contract: 'openapi' | 'graphql';
  level: Level;
  /** Where: `POST /books request body (application/json).title`, `Query.books`, ... */
  where: string;
  message: string;
  /** Something clients used was removed; allowed only after it was deprecated in the base. */
  removal?: boolean;
  /** For a removal: whether the removed thing carried a deprecation in the base. */
  deprecated?: boolean;
}
