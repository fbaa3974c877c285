import type { Server } from 'node:http';
import { launchBrowser, openPage, screenshot, startService, type Browser } from './browser';

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

describe('Swagger UI at /docs in a real browser', () => {
  it('when GET /books is expanded and run with "Try it out", then it shows 200 and the books', async () => {
    const { page, problems } = await openPage(browser, service.baseUrl);
    await page.goto(`${service.baseUrl}/docs`);
    const operation = page.locator('#operations-books-listBooks');
    await operation.waitFor();
    await screenshot(page, 'swagger-ui-overview');
    await operation.locator('.opblock-summary').first().click();
    await operation.getByRole('button', { name: 'Try it out' }).click();
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
