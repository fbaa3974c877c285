import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import type { Config } from '../../src/config';
import { projectRoot } from '../../src/spec';
import { makeApp } from '../support/app';

export const artifactsDir = path.join(projectRoot, 'artifacts', 'browser');

/** The service on an ephemeral loopback port. */
export async function startService(config: Partial<Config> = {}): Promise<{ server: Server; baseUrl: string }> {
  const { app } = makeApp({ config });
  const server = createServer(app);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return { server, baseUrl: `http://127.0.0.1:${port}` };
}

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Headless Debian chromium with a fresh profile; nothing in the background talks to the network. */
export async function launchBrowser(): Promise<Browser> {
  const profile = mkdtempSync(path.join(tmpdir(), 'chromium-profile-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
    ],
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface PageProblems {
  /** Requests to anywhere but the service (they are aborted: the UIs must work offline). */
  external: string[];
  /** Uncaught page errors and console errors (CSP violations show up here). */
  errors: string[];
}

/** A new page that may only reach `baseUrl`, recording anything else it tries and every error it reports. */
export async function openPage(browser: Browser, baseUrl: string): Promise<{ page: Page; problems: PageProblems }> {
  const page = await browser.context.newPage();
  const problems: PageProblems = { external: [], errors: [] };
  await page.route('**/*', (route) => {
    const url = route.request().url();
    if (url.startsWith(`${baseUrl}/`) || url.startsWith('data:')) return route.continue();
    problems.external.push(url);
    return route.abort();
  });
  page.on('pageerror', (err) => problems.errors.push(`pageerror: ${err.message}`));
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.errors.push(`console: ${msg.text()}`);
  });
  return { page, problems };
}

export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(artifactsDir, { recursive: true });
  await page.screenshot({ path: path.join(artifactsDir, `${name}.png`), fullPage: false });
}
