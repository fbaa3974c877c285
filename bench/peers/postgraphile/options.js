'use strict';
// How PostGraphile runs in the benchmark: the options its CLI docs recommend for production
// ("Recommended options", For Production), as library options: no GraphiQL, no query log, dynamic
// JSON, RBAC and indexes respected, the simplify inflector, query batching. Subscriptions are left
// off (nothing here subscribes). Lists instead of Relay connections (simpleCollections 'only', and
// the inflector's pgOmitListSuffix), so the queries are the same text as the service's.
module.exports = {
  OPTIONS: {
    retryOnInitFail: true,
    dynamicJson: true,
    setofFunctionsContainNulls: false,
    ignoreRBAC: false,
    ignoreIndexes: false,
    extendedErrors: ['errcode'],
    graphiql: false,
    enableQueryBatching: true,
    disableQueryLog: true,
    legacyRelations: 'omit',
    simpleCollections: 'only',
    graphileBuildOptions: { pgOmitListSuffix: true },
  },
  /** appendPlugins, by package name. */
  PLUGINS: ['@graphile-contrib/pg-simplify-inflector'],
  POOL_SIZE: 10,
};
