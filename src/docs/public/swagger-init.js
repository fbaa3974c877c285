/* Starts Swagger UI on this service's own openapi document. Served from /docs/assets (no inline script).
   The page says where the service is mounted (`data-base`: '' at the root, '/api' under a prefix). */
/* global SwaggerUIBundle */
'use strict';
window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({
    url: document.body.dataset.base + '/openapi.json',
    dom_id: '#swagger-ui',
    presets: [SwaggerUIBundle.presets.apis],
    layout: 'BaseLayout',
    deepLinking: true,
    // No calls to validator.swagger.io: everything stays on this service.
    validatorUrl: null,
    tryItOutEnabled: false,
    displayRequestDuration: true,
  });
});
