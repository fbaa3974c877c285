import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { checkContracts } from '../../scripts/contract-diff/gate';
import { fixture, lines, ROOT } from './support';

// Each fixture in fixtures/openapi/ is base.yaml with one kind of change (diff them to see it).
const gate = (after: string) => checkContracts({ openapi: fixture('openapi/base.yaml') }, { openapi: fixture(`openapi/${after}.yaml`) });
const BOOK_RESPONSES = ['GET /books 200 response body (application/json)[]', 'POST /books 201 response body (application/json)', 'GET /books/search 200 response body (application/json)[]'];

describe('OpenAPI gate: breaking changes fail', () => {
  test.each([
    ['operation-removed', ['POST /books: operation removed [refused]']],
    ['response-property-removed', BOOK_RESPONSES.map((r) => `${r}.format: property removed [refused]`)],
    ['parameter-removed', ['GET /books query parameter limit: parameter removed [refused]']],
    ['request-property-removed', ['POST /books request body (application/json).format: property removed [refused]']],
    ['request-property-now-required', ['POST /books request body (application/json).format: property now required [refused]']],
    ['new-required-parameter', ['GET /books header parameter X-Api-Key: new required parameter [refused]']],
    ['request-maximum-narrowed', ['GET /books query parameter limit: maximum 1000 -> 100 [refused]']],
    [
      'request-pattern-narrowed',
      [
        "POST /books request body (application/json).title: pattern '\\S' -> '^[^\\u0000]*\\S[^\\u0000]*$' [refused]",
        "PUT /notes/{id} request body (application/json).body: pattern '\\S' -> '^[^\\u0000]*\\S[^\\u0000]*$' [refused]",
      ],
    ],
    [
      'request-enum-narrowed',
      [
        `${BOOK_RESPONSES[0]}.format: enum value 'ebook' removed [refused]`,
        "POST /books request body (application/json).format: enum value 'ebook' removed [refused]",
        `${BOOK_RESPONSES[1]}.format: enum value 'ebook' removed [refused]`,
        `${BOOK_RESPONSES[2]}.format: enum value 'ebook' removed [refused]`,
      ],
    ],
    ['response-type-widened', BOOK_RESPONSES.map((r) => `${r}.id: type integer -> integer|null [refused]`)],
    ['request-media-type-removed', ['POST /books request body: media type application/json removed [refused]']],
    ['success-status-removed', ['POST /books 201: response status removed [refused]']],
    ['response-header-removed', ['GET /books 200 header X-Total-Count: response header removed [refused]']],
  ])('when the change is %s, then it is breaking and the gate fails', async (name, breaking) => {
    const result = await gate(name);

    expect(lines(result, 'breaking')).toEqual(breaking);
    expect(result.failed).toBe(true);
  });

  test('when a narrowed text pattern is also served in responses, then only the request side is breaking', async () => {
    const result = await gate('request-pattern-narrowed');

    expect(lines(result, 'safe')).toHaveLength(7);
    expect(lines(result, 'safe').every((l) => l.includes('response body'))).toBe(true);
  });
});

describe('OpenAPI gate: safe and dangerous changes pass', () => {
  test.each([
    ['optional-request-property-added', ['POST /books request body (application/json).pages: property added']],
    ['operation-added', ['DELETE /notes/{id}: operation added']],
    ['response-property-added', BOOK_RESPONSES.map((r) => `${r}.pages: property added`)],
    ['deprecation-added', [...BOOK_RESPONSES.map((r) => `${r}.format: deprecated`), 'GET /notes/{id}: operation deprecated']],
    ['optional-headers-added', ['POST /books header parameter Idempotency-Key: optional parameter added', 'GET /notes/{id} 200 header ETag: response header added']],
  ])('when the change is %s, then it is safe and the gate passes', async (name, safe) => {
    const result = await gate(name);

    expect(lines(result, 'safe')).toEqual(safe);
    expect(result.changes.filter((c) => c.level !== 'safe')).toEqual([]);
    expect(result.failed).toBe(false);
  });

  test.each([
    ['new-error-status', ['POST /books 409: new response status (clients must handle it)']],
    ['response-enum-value-added', BOOK_RESPONSES.map((r) => `${r}.format: enum value 'audio' added`)],
  ])('when the change is %s, then it is dangerous and the gate passes', async (name, dangerous) => {
    const result = await gate(name);

    expect(lines(result, 'dangerous')).toEqual(dangerous);
    expect(lines(result, 'breaking')).toEqual([]);
    expect(result.failed).toBe(false);
  });

  test('when nothing but the version changes, then there is no change to report', async () => {
    const result = await gate('version-bump');

    expect(result).toMatchObject({ changes: [], baseVersion: '1.0.0', headVersion: '2.0.0', majorBumped: true, failed: false });
  });
});

describe('OpenAPI gate: announcing a breaking change', () => {
  test('when deprecated things are removed with a major version bump, then the removal passes', async () => {
    const result = await gate('removal-after-deprecation-and-bump');

    expect(lines(result, 'breaking')).toEqual([
      'GET /books/search: operation removed [announced]',
      'GET /notes/{id} 200 response body (application/json).text: property removed [announced]',
      'PUT /notes/{id} 200 response body (application/json).text: property removed [announced]',
    ]);
    expect(result.failed).toBe(false);
  });

  test('when a deprecated property is removed without a version bump, then the gate fails and says to bump', async () => {
    const result = await gate('deprecated-removed-without-bump');

    expect(lines(result, 'breaking')).toEqual([
      'GET /notes/{id} 200 response body (application/json).text: property removed [refused]',
      'PUT /notes/{id} 200 response body (application/json).text: property removed [refused]',
    ]);
    expect(result.changes[0].note).toBe('deprecated in the base; to remove it, bump the major of info.version in openapi.yaml (1.0.0)');
    expect(result.failed).toBe(true);
  });

  test('when a property that was never deprecated is removed, then a version bump is not enough', async () => {
    const result = await gate('bump-but-not-deprecated');

    expect(lines(result, 'breaking')).toEqual(BOOK_RESPONSES.map((r) => `${r}.format: property removed [refused]`));
    expect(result.changes[0].note).toMatch(/^not deprecated in the base: deprecate it first/);
    expect(result.failed).toBe(true);
  });

  test('when a narrowing comes with a major version bump, then it is announced and passes', async () => {
    const result = await gate('breaking-with-bump');

    expect(lines(result, 'breaking')).toHaveLength(2);
    expect(result.changes.filter((c) => c.level === 'breaking').every((c) => c.announced)).toBe(true);
    expect(result.failed).toBe(false);
  });
});

describe("OpenAPI gate on the project's own openapi.yaml", () => {
  const own = readFileSync(path.join(ROOT, 'openapi.yaml'), 'utf8');

  test('when it is compared with itself, then there is no change', async () => {
    const result = await checkContracts({ openapi: own }, { openapi: own });

    expect(result.changes).toEqual([]);
    expect(result.failed).toBe(false);
  });

  // The kinds of change other work on this service makes: each is classified, not just "changed".
  test('when optional headers, new statuses, a new path and a stricter text pattern land, then only the pattern is breaking', async () => {
    const doc = parse(own);
    const post = doc.paths['/books'].post;
    post.parameters = [...(post.parameters ?? []), { name: 'X-Trace-Id', in: 'header', required: false, schema: { type: 'string' } }];
    post.responses['418'] = { $ref: '#/components/responses/JsonBadRequest' };
    const ok = doc.paths['/books/{id}'].get.responses['200'];
    ok.headers = { ...(ok.headers ?? {}), 'X-Served-By': { schema: { type: 'string' } } };
    doc.paths['/books/{id}'].get.responses['299'] = { description: 'A new success status.' };
    doc.paths['/health/extra'] = { get: { operationId: 'extra', responses: { '200': { description: 'Extra.' } } } };
    doc.components.schemas.Text.pattern = '^[^\\u0001]*\\S[^\\u0001]*$';

    const result = await checkContracts({ openapi: own }, { openapi: stringify(doc) });

    expect(lines(result, 'dangerous')).toEqual(['POST /books 418: new response status (clients must handle it)', 'GET /books/{id} 299: new response status (clients must handle it)']);
    expect(lines(result, 'safe')).toEqual(
      expect.arrayContaining([
        'POST /books header parameter X-Trace-Id: optional parameter added',
        'GET /books/{id} 200 header X-Served-By: response header added',
        'GET /health/extra: operation added',
      ]),
    );
    const breaking = result.changes.filter((c) => c.level === 'breaking');
    expect(breaking.length).toBeGreaterThan(0);
    expect(breaking.every((c) => c.message.startsWith('pattern ') && c.where.includes(' request body '))).toBe(true);
    expect(result.failed).toBe(true);
  });
});

describe('OpenAPI gate: security requirements', () => {
  /** base.yaml with POST /books given `security`, and info.version set to `version` when given. */
  const secured = (security: unknown[], version?: string): string => {
    const doc = parse(fixture('openapi/base.yaml'));
    doc.components.securitySchemes = { bearerAuth: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } };
    doc.paths['/books'].post.security = security;
    if (version) doc.info.version = version;
    return stringify(doc);
  };
  const check = (after: string) => checkContracts({ openapi: fixture('openapi/base.yaml') }, { openapi: after });

  test('when a requirement drops anonymous access, then it is breaking and the gate fails', async () => {
    const result = await check(secured([{ bearerAuth: ['books:write'] }]));

    expect(lines(result, 'breaking')).toEqual(['POST /books security: anonymous access removed (a credential is now required) [refused]']);
    expect(result.failed).toBe(true);
  });

  test('when a requirement keeps anonymous access ({}) beside it, then it is not breaking', async () => {
    const result = await check(secured([{}, { bearerAuth: ['books:write'] }]));

    expect(lines(result, 'breaking')).toEqual([]);
    expect(result.failed).toBe(false);
  });

  test('when anonymous access is dropped with a major version bump, then it is announced and passes', async () => {
    const base = parse(fixture('openapi/base.yaml'));
    const major = Number(String(base.info.version).split('.')[0]) + 1;
    const result = await check(secured([{ bearerAuth: ['books:write'] }], `${major}.0.0`));

    expect(result.changes.filter((c) => c.level === 'breaking').map((c) => c.announced)).toEqual([true]);
    expect(result.failed).toBe(false);
  });
});
