import { GRAPHQL_RESPONSE, makeGqlApp } from './support';

const JSON_MEDIA = 'application/json';
/** Requests that produce no `data`, one per reason. */
const NO_DATA: [string, string, Record<string, unknown> | undefined][] = [
  ['an unparseable document', '{ books { id }', undefined],
  ['a validation failure', '{ books { nope } }', undefined],
  ['a variable coercion failure (null for ID!)', 'query($id: ID!) { book(id: $id) { id } }', { id: null }],
  ['a variable of the wrong type', 'query($id: ID!) { book(id: $id) { id } }', { id: { not: 'an id' } }],
  ['a missing required variable', 'query($id: ID!) { book(id: $id) { id } }', {}],
];

describe('POST /graphql status codes (GraphQL over HTTP)', () => {
  it.each(NO_DATA)('when %s is sent accepting application/graphql-response+json, then it is a 400 without data', async (_case, query, variables) => {
    const { gql } = makeGqlApp();
    const res = await gql(query, variables, GRAPHQL_RESPONSE);
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toBe('application/graphql-response+json; charset=utf-8');
    expect(res.body).not.toHaveProperty('data');
    expect(res.body.errors?.length).toBeGreaterThan(0);
  });

  it.each(NO_DATA)('when %s is sent accepting application/json, then it is a 200 without data (legacy rule)', async (_case, query, variables) => {
    const { gql } = makeGqlApp();
    const res = await gql(query, variables, JSON_MEDIA);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.body).not.toHaveProperty('data');
    expect(res.body.errors?.length).toBeGreaterThan(0);
  });

  it('when execution fails partly, then it is a 200 with data and errors under either media type', async () => {
    const { gql } = makeGqlApp();
    for (const accept of [GRAPHQL_RESPONSE, JSON_MEDIA]) {
      const res = await gql('mutation { addTodo(title: " ") { id } }', undefined, accept);
      expect(res.status).toBe(200);
      expect(res.body.data).toBeNull();
    }
  });

  it('when the body is not JSON, then it is a 400', async () => {
    const { http } = makeGqlApp();
    const res = await http.post('/graphql').set('Content-Type', 'application/json').send('{"query": ');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ message: 'Unparsable JSON body' }] });
  });

  it('when the body is not JSON at all (text/plain), then it is a 415', async () => {
    const { http } = makeGqlApp();
    const res = await http.post('/graphql').set('Content-Type', 'text/plain').send('{ books { id } }');
    expect(res.status).toBe(415);
  });

  it('when the client accepts neither JSON media type, then it is a 406', async () => {
    const { http } = makeGqlApp();
    const res = await http.post('/graphql').set('Accept', 'application/xml').send({ query: '{ books { id } }' });
    expect(res.status).toBe(406);
  });

  it('when the body is larger than the body limit, then it is a 413 and the document is not run', async () => {
    const { http, store } = makeGqlApp({ config: { bodyLimit: 1024 } });
    const query = `mutation { addTodo(title: "${'x'.repeat(900)}") { id } } # ${'pad'.repeat(100)}`;
    const res = await http.post('/graphql').set('Accept', GRAPHQL_RESPONSE).send({ query });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ error: 'Request body is larger than 1024 bytes', errors: [{ message: 'Request body is larger than 1024 bytes' }] });
    expect((await store.todos.list()).total).toBe(3);
  });

  it('when the body is just under the body limit, then it is served', async () => {
    const { http } = makeGqlApp({ config: { bodyLimit: 1024 } });
    const query = `{ books { id } } # ${'p'.repeat(900)}`;
    const res = await http.post('/graphql').send({ query });
    expect(res.status).toBe(200);
  });

  it('when the method is neither GET nor POST, then it is a 405 with Allow', async () => {
    const { http } = makeGqlApp();
    const res = await http.put('/graphql').send({ query: '{ books { id } }' });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
  });

  it('when OPTIONS is sent, then it answers 204 with Allow', async () => {
    const { http } = makeGqlApp();
    const res = await http.options('/graphql');
    expect(res.status).toBe(204);
    expect(res.headers.allow).toBe('GET, POST');
  });

  it('when the query parameter is missing, then it is a 400', async () => {
    const { http } = makeGqlApp();
    const res = await http.post('/graphql').send({ variables: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ message: 'Missing query' }] });
  });
});

describe('/graphql outside GraphQL execution: the service JSON error format, HEAD like GET', () => {
  it.each(['put', 'delete', 'patch'] as const)('when %s is sent, then it answers 405 JSON {error, errors} with Allow', async (method) => {
    const { http } = makeGqlApp();
    const res = await http[method]('/graphql').expect(405).expect('Content-Type', /application\/json/);
    expect(res.headers.allow).toBe('GET, POST');
    expect(res.body).toEqual({ error: expect.stringMatching(/Method not allowed/), errors: [{ message: res.body.error }] });
  });

  it('when a POST body is not JSON, then it answers 415 JSON {error, errors}', async () => {
    const { http } = makeGqlApp();
    const res = await http.post('/graphql').set('Content-Type', 'text/plain').send('{ books { id } }').expect(415);
    expect(res.body).toEqual({ error: expect.stringMatching(/Unsupported media type/), errors: [{ message: res.body.error }] });
  });

  it('when HEAD asks for a query, then it answers as GET does, with the headers and no body', async () => {
    const { http } = makeGqlApp();
    const get = await http.get('/graphql').query({ query: '{ books { id } }' }).expect(200);
    const head = await http.head('/graphql').query({ query: '{ books { id } }' }).expect(200);
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
    expect(head.text ?? '').toBe('');
  });

  it('when an answer is sent (a result, a GraphQL error or a transport error), then it carries its byte length, not chunked encoding', async () => {
    const { gql, http } = makeGqlApp();
    const answers = [
      await gql('{ users { name posts { title comments { body } } } }'),
      await gql('{ books { nope } }'),
      await http.put('/graphql').expect(405),
    ];
    for (const res of answers) {
      expect(res.headers['transfer-encoding']).toBeUndefined();
      expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.text)));
    }
    const head = await http.head('/graphql').query({ query: '{ books { id } }' }).expect(200);
    const get = await http.get('/graphql').query({ query: '{ books { id } }' }).expect(200);
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
  });
});

