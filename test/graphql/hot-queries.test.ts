import { limits, makeGqlApp } from './support';

const NESTED = '{ users { name posts { title comments { body } } } }';

const compiledLines = (logs: Record<string, unknown>[]) => logs.filter((line) => line.msg === 'graphql operation compiled');

describe('Hot queries over HTTP', () => {
  it('when the same query comes again, then it is compiled once, from its second run, and every answer is the same', async () => {
    const { gql, logs } = makeGqlApp();
    const first = await gql(NESTED);
    expect(first.status).toBe(200);
    expect(compiledLines(logs)).toHaveLength(0);
    const answers = [await gql(NESTED), await gql(NESTED), await gql(NESTED)];
    expect(compiledLines(logs)).toHaveLength(1);
    for (const answer of answers) expect(answer.body).toEqual(first.body);
  });

  it('when a hot query is asked with other variables, then each answer is for its own variables', async () => {
    const { gql } = makeGqlApp({ config: limits({ compileAfter: 0 }) });
    const query = 'query ($id: ID!) { user(id: $id) { name } }';
    expect((await gql(query, { id: '1' })).body).toEqual({ data: { user: { name: 'Ada Lovelace' } } });
    expect((await gql(query, { id: '2' })).body.data?.user).not.toEqual({ name: 'Ada Lovelace' });
    expect((await gql(query, { id: '999' })).body).toEqual({ data: { user: null } });
  });

  it('when a hot query sees a change made in between, then the next answer shows it (nothing but the plan is kept)', async () => {
    const { gql, http } = makeGqlApp({ config: limits({ compileAfter: 0 }) });
    await gql('{ books { title } }');
    await http.put('/books/1').send({ title: 'Changed' }).expect(200);
    expect(((await gql('{ books { title } }')).body.data?.books as { title: string }[])[0]).toEqual({ title: 'Changed' });
  });

  it('when GRAPHQL_COMPILED_CACHE_SIZE is 0, then nothing is compiled', async () => {
    const { gql, logs } = makeGqlApp({ config: limits({ compiledCacheSize: 0 }) });
    for (let i = 0; i < 3; i += 1) expect((await gql(NESTED)).status).toBe(200);
    expect(compiledLines(logs)).toHaveLength(0);
  });
});
