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
  /** Each asset by its name, from the folder it ships in. */
  const from = (dir: string, ...names: string[]) => names.map((name): [string, string] => [name, path.join(dir, name)]);
  return new Map([
    ...from(swagger, 'swagger-ui.css', 'swagger-ui-bundle.js', 'swagger-ui-bundle.js.map', 'swagger-ui.css.map', 'favicon-32x32.png', 'favicon-16x16.png'),
    ...from(graphiql, 'graphiql.min.css', 'graphiql.min.js', 'graphiql.min.js.map', 'graphiql.min.css.map'),
    ...from(publicDir, 'swagger-init.js', 'graphiql-page.css', 'graphiql-init.js'),
    ...from(path.join(react, 'umd'), 'react.production.min.js'),
    ...from(path.join(reactDom, 'umd'), 'react-dom.production.min.js'),
  ]);
}
