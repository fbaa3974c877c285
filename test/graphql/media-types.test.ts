import { makeGqlApp } from './support';

/**
 * A clean result is serialised by the endpoint, any other answer by graphql-http (src/graphql/endpoint.ts):
 * both carry the media type graphql-http negotiated from the Accept header.
 */
describe('GraphQL answers and the Accept header', () => {
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
