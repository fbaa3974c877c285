import path from 'node:path';
import { projectRoot } from '../spec';

/** The folder of an installed package (its files are served as-is; nothing is fetched from a CDN). */
function packageDir(name: string): string {
  return path.dirname(require.resolve(`${name}/package.json`));
}

/** This module's own static files (HTML pages, init scripts); found from the project root so dist/ works too. */
export const publicDir = path.join(projectRoot, 'src', 'docs', 'public');

/**
 * Every file the two UIs may load, by the name it is served under at /docs/assets/<name>.
 * An allow-list rather than a static folder: only these files are reachable, nothing else in node_modules.
 */
export function docAssets(): ReadonlyMap<string, string> {
  const swagger = packageDir('swagger-ui-dist');
  const graphiql = packageDir('graphiql');
  const react = packageDir('react');
  const reactDom = packageDir('react-dom');
  return new Map([
    ['swagger-ui.css', path.join(swagger, 'swagger-ui.css')],
    ['swagger-ui-bundle.js', path.join(swagger, 'swagger-ui-bundle.js')],
    ['swagger-ui-bundle.js.map', path.join(swagger, 'swagger-ui-bundle.js.map')],
    ['swagger-ui.css.map', path.join(swagger, 'swagger-ui.css.map')],
    ['favicon-32x32.png', path.join(swagger, 'favicon-32x32.png')],
    ['favicon-16x16.png', path.join(swagger, 'favicon-16x16.png')],
    ['swagger-init.js', path.join(publicDir, 'swagger-init.js')],
    ['graphiql.min.css', path.join(graphiql, 'graphiql.min.css')],
    ['graphiql.min.js', path.join(graphiql, 'graphiql.min.js')],
    ['graphiql.min.js.map', path.join(graphiql, 'graphiql.min.js.map')],
    ['graphiql.min.css.map', path.join(graphiql, 'graphiql.min.css.map')],
    ['graphiql-page.css', path.join(publicDir, 'graphiql-page.css')],
    ['graphiql-init.js', path.join(publicDir, 'graphiql-init.js')],
    ['react.production.min.js', path.join(react, 'umd', 'react.production.min.js')],
    ['react-dom.production.min.js', path.join(reactDom, 'umd', 'react-dom.production.min.js')],
  ]);
}
