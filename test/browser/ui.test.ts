import type { Server } from 'node:http';
import { SignJWT } from 'jose';
import type { Locator, Page } from 'playwright-core';
import { loadConfig } from '../../src/config';
import { launchBrowser, openPage, screenshot, startService, type Browser, type PageProblems } from './browser';

let service: { server: Server; baseUrl: string };
let browser: Browser;

beforeAll(async () => {
  service = await startService();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await new Promise((resolve) => service?.server.close(resolve));
});

/** Opens /docs, expands the operation and presses "Try it out"; the operation's block. */
async function tryItOut(page: Page, operationId: string, baseUrl = service.baseUrl): Promise<Locator> {
  await page.goto(`${baseUrl}/docs`);
  const operation = page.locator(`#operations-books-${operationId}`);
  await operation.waitFor();
  await screenshot(page, 'swagger-ui-overview');
  await operation.locator('.opblock-summary').first().click();
  await operation.getByRole('button', { name: 'Try it out' }).click();
  return operation;
}

describe('Swagger UI at /docs in a real browser', () => {
  it('when GET /books is expanded and run with "Try it out", then it shows 200 and the books', async () => {
    const { page, problems } = await openPage(browser, service.baseUrl);
    const operation = await tryItOut(page, 'listBooks');
    await operation.getByRole('button', { name: 'Execute' }).click();

    const live = operation.locator('.live-responses-table');
    await live.locator('tr.response .response-col_status').first().waitFor();
    await screenshot(page, 'swagger-ui-list-books');
    expect((await live.locator('tr.response .response-col_status').first().innerText()).trim()).toBe('200');
    const body = await live.locator('tr.response .response-col_description pre').first().innerText();
    expect(body).toContain('The Hobbit');
    expect(body).toContain('Beloved');
    expect(problems).toEqual({ external: [], errors: [] });
  });
});

describe('Swagger UI "Try it out" on a create', () => {
  it('when POST /books is run twice in a row with different titles, then both answer 201 with their own book', async () => {
    const { page, problems } = await openPage(browser, service.baseUrl);
    const operation = await tryItOut(page, 'createBook');
    // The Idempotency-Key field is offered empty (the spec gives no example): an empty field sends no header.
    expect(await operation.locator('tr[data-param-name="Idempotency-Key"] input').inputValue()).toBe('');

    const created: { status: string; body: { id: number; title?: string; error?: string }; curl: string }[] = [];
    for (const title of ['Try it out, first', 'Try it out, second']) {
      await operation.locator('textarea.body-param__text').fill(JSON.stringify({ title, pages: 10 }));
      const answered = page.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/books');
      await operation.getByRole('button', { name: 'Execute' }).click();
      const answer = await answered;
      const sent = await answer.json();
      // The page shows this answer (its title, or its error) before it is read.
      const live = operation.locator('.live-responses-table');
      const body = live.locator('tr.response .response-col_description pre').first();
      await body.getByText(sent.title ?? sent.error).waitFor();
      const status = (await live.locator('tr.response .response-col_status').first().innerText()).trim();
      created.push({ status, body: JSON.parse(await body.innerText()), curl: await operation.locator('.curl-command').innerText() });
    }
    await screenshot(page, 'swagger-ui-create-twice');
    expect(created.map(({ status, body }) => [status, body.title])).toEqual([
      ['201', 'Try it out, first'],
      ['201', 'Try it out, second'],
    ]);
    expect(created[1].body.id).toBe(created[0].body.id + 1);
    for (const { curl } of created) expect(curl.toLowerCase()).not.toContain('idempotency-key');
    expect(problems).toEqual({ external: [], errors: [] });
  });
});

describe('Swagger UI with bearer tokens (AUTH_JWT_SECRET)', () => {
  const secret = 'browser-test-secret-of-at-least-32-bytes';
  let secured: { server: Server; baseUrl: string };
  beforeAll(async () => {
    secured = await startService({ auth: loadConfig({ AUTH_JWT_SECRET: secret }).auth });
  });
  afterAll(async () => {
    await new Promise((resolve) => secured?.server.close(resolve));
  });

  it('when a token is given with Authorize, then "Try it out" on POST /books sends it and answers 201 (401 before)', async () => {
    const { page, problems } = await openPage(browser, secured.baseUrl);
    const operation = await tryItOut(page, 'createBook', secured.baseUrl);
    const execute = async (title: string) => {
      await operation.locator('textarea.body-param__text').fill(JSON.stringify({ title }));
      const answered = page.waitForResponse((res) => res.request().method() === 'POST' && new URL(res.url()).pathname === '/books');
      await operation.getByRole('button', { name: 'Execute' }).click();
      return answered;
    };
    expect((await execute('Without a token')).status()).toBe(401);

    const jwt = await new SignJWT({ scope: 'books:write' }).setProtectedHeader({ alg: 'HS256' }).setSubject('browser').setExpirationTime('5m').sign(new TextEncoder().encode(secret));
    await page.locator('.auth-wrapper button.authorize').click();
    const dialog = page.locator('.modal-ux');
    await dialog.locator('input').first().fill(jwt);
    await dialog.locator('button.modal-btn.authorize').click();
    await dialog.locator('button.btn-done').click();
    await screenshot(page, 'swagger-ui-authorized');

    const answer = await execute('With a token');
    expect(answer.status()).toBe(201);
    expect(answer.request().headers().authorization).toBe(`Bearer ${jwt}`);
    expect((await answer.json()).title).toBe('With a token');
    // The refused request is logged by the browser as a failed resource; nothing else went wrong.
    expect(problems.external).toEqual([]);
  });
});

describe('Swagger UI shows security only where the instance checks tokens', () => {
  /** The Authorize button, and the operations that show a lock, once the page has drawn its operations. */
  async function locks(baseUrl: string): Promise<{ authorize: number; locked: string[]; problems: PageProblems }> {
    const { page, problems } = await openPage(browser, baseUrl);
    await page.goto(`${baseUrl}/docs`);
    await page.locator('#operations-books-createBook').waitFor();
    const locked = await page.locator('.opblock:has(.authorization__btn)').evaluateAll((blocks) => blocks.map((block) => block.id.replace(/^operations-[^-]+-/, '')));
    return { authorize: await page.locator('.auth-wrapper button.authorize').count(), locked: locked.sort(), problems };
  }

  it('when tokens are not checked (the default), then there is no Authorize button and no lock', async () => {
    const { authorize, locked, problems } = await locks(service.baseUrl);
    expect({ authorize, locked }).toEqual({ authorize: 0, locked: [] });
    expect(problems).toEqual({ external: [], errors: [] });
  });

  it('when tokens are checked and reads are public, then Authorize is there and only the writes carry a lock', async () => {
    const secured = await startService({ auth: loadConfig({ AUTH_JWT_SECRET: 'browser-test-secret-of-at-least-32-bytes' }).auth });
    try {
      const { authorize, locked } = await locks(secured.baseUrl);
      expect(authorize).toBe(1);
      expect(locked).toEqual(expect.arrayContaining(['createBook', 'updateBook', 'deleteBook', 'createTodo', 'createItem']));
      expect(locked.filter((id) => /^(list|get)/.test(id))).toEqual([]);
    } finally {
      await new Promise((resolve) => secured.server.close(resolve));
    }
  });
});

describe('GraphiQL at /graphql in a real browser', () => {
  it('when { books { title } } is run, then the result shows the titles', async () => {
    const { page, problems } = await openPage(browser, service.baseUrl);
    await page.goto(`${service.baseUrl}/graphql`);
    const editor = page.locator('.graphiql-query-editor .CodeMirror');
    await editor.waitFor();
    await editor.evaluate((el, query) => (el as unknown as { CodeMirror: { setValue(v: string): void } }).CodeMirror.setValue(query), '{ books { title } }');
    await page.locator('.graphiql-execute-button').click();

    const result = page.locator('.graphiql-response .CodeMirror');
    await result.getByText('The Hobbit').first().waitFor();
    await screenshot(page, 'graphiql-books');
    const text = await result.innerText();
    expect(text).toContain('"title": "The Hobbit"');
    expect(text).toContain('"title": "Neuromancer"');
    expect(text).not.toContain('"errors"');
    expect(problems).toEqual({ external: [], errors: [] });
  });
});
