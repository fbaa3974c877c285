/* Starts GraphiQL against this service's /graphql. Served from /docs/assets (no inline script).
   The page says where the service is mounted (`data-base`: '' at the root, '/api' under a prefix). */
/* global React, ReactDOM, GraphiQL */
'use strict';
(function () {
  var fetcher = GraphiQL.createFetcher({ url: new URL(document.body.dataset.base + '/graphql', window.location.href).href });
  var root = ReactDOM.createRoot(document.getElementById('graphiql'));
  root.render(
    React.createElement(GraphiQL, {
      fetcher: fetcher,
      defaultQuery: '{\n  books {\n    id\n    title\n  }\n}\n',
    }),
  );
})();
