import { makeGqlApp } from './support';

/**
 * The one speed trick of the endpoint (src/graphql/plain-result.ts): a result with data and no errors is
 * serialised without graphql-http's JSON replacer, as the answer graphql-http would have given. These
 * tests go through the real app, so an upgrade of graphql-http that changes what the trick copies (its
 * Accept negotiation) or removes its reason (the replacer) makes them fail.
 */
describe('GraphQL results serialised without a replacer', () => {
  /** How many JSON.stringify calls with a replacer function one request makes. */
  async function replacerCalls(send: () => Promise<unknown>): Promise<number> {
    const stringify = jest.spyOn(JSON, 'stringify');
    try {
      await send();
      return stringify.mock.calls.filter(([, replacer]) => typeof replacer === 'function').length;
    } finally {
      stringify.mockRestore();
    }
  }

  it('when a query succeeds, then its answer is written with a plain JSON.stringify, and an answer with errors still by graphql-http with its replacer', async () => {
    const { gql } = makeGqlApp();
    let body: unknown;
    expect(
      await replacerCalls(async () => {
        body = (await gql('{ books { id title } }')).body;
      }),
    ).toBe(0);
    expect(body).toEqual({ data: { books: expect.arrayContaining([expect.objectContaining({ id: '1' })]) } });
    // If graphql-http stops using a replacer, the trick has no reason left: this fails, and it can go.
    expect(await replacerCalls(() => gql('{ books { id nope } }'))).toBeGreaterThan(0);
  });

  it.each([
    '*/*',
    'application/json',
    'application/*',
    'application/graphql-response+json',
    'application/graphql-response+json; charset=utf-8',
    'application/graphql-response+json, application/json',
    'application/json, application/graphql-response+json',
    'application/json;charset=utf8',
    'application/graphql-response+json;charset=latin1, application/json',
    'text/html;q=0.9, application/graphql-response+json',
  ])('when the Accept header is %s, then a successful answer has the media type graphql-http negotiates for its own answers', async (accept) => {
    const { gql } = makeGqlApp();
    const ok = await gql('{ books { id } }', undefined, accept);
    const byGraphqlHttp = await gql('{ books { nope } }', undefined, accept);
    expect(ok.status).toBe(200);
    expect(byGraphqlHttp.body.errors?.length).toBeGreaterThan(0);
    expect(ok.headers['content-type']).toBe(byGraphqlHttp.headers['content-type']);
  });
});
