import { makeGqlApp } from '../graphql/support';
import { makeApp, snapshot } from '../support/app';
import { hs256, token } from './support';

/**
 * docs/contract.md §14.4, §15.7: refusals count against the rate limit, by address when the request has no
 * valid principal, so guessing tokens is as limited as any other request.
 */
describe('refusals count against the rate limit (RATE_LIMIT=3)', () => {
  const statuses = async (send: () => Promise<{ status: number; headers: Record<string, string> }>, times: number) => {
    const answers = [];
    for (let i = 0; i < times; i++) answers.push(await send());
    return answers;
  };

  it.each([
    ['no token', undefined],
    ['a garbage token', 'Bearer garbage'],
    ['a token signed with another key', 'other-key'],
  ])('when six POST /books come with %s, then the first three are 401 and the rest 429 with Retry-After, and nothing is stored', async (_what, authorization) => {
    const { http, store } = makeApp({ config: { auth: hs256(), rateLimit: 3 } });
    const before = await snapshot(store);
    const header = authorization === 'other-key' ? `Bearer ${await token('books:write', {}, { secret: 'another-secret-that-is-at-least-32-bytes' })}` : authorization;
    const answers = await statuses(() => {
      const req = http.post('/books').send({ title: 'Guess' });
      return header === undefined ? req : req.set('Authorization', header);
    }, 6);
    expect(answers.map((res) => res.status)).toEqual([401, 401, 401, 429, 429, 429]);
    for (const res of answers.slice(3)) expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(await snapshot(store)).toEqual(before);
  });

  it('when a burst of bad tokens goes to /graphql, then it meets 429 too', async () => {
    const { http } = makeGqlApp({ config: { auth: hs256(), rateLimit: 3 } });
    const answers = await statuses(() => http.post('/graphql').set('Authorization', 'Bearer garbage').send({ query: '{ books { id } }' }), 5);
    expect(answers.map((res) => res.status)).toEqual([401, 401, 401, 429, 429]);
    expect(answers[4].headers['retry-after']).toEqual(expect.any(String));
  });

  it('when a valid token lacks the scope, then its 403s count against its principal', async () => {
    const { http } = makeApp({ config: { auth: hs256(), rateLimit: 3 } });
    const reader = `Bearer ${await token('books:read', { sub: 'reader' })}`;
    const answers = await statuses(() => http.post('/books').set('Authorization', reader).send({ title: 'x' }), 4);
    expect(answers.map((res) => res.status)).toEqual([403, 403, 403, 429]);
  });

  it('when an address has spent its share on bad tokens, then a valid principal from it is still served (counted on its own)', async () => {
    const { http } = makeApp({ config: { auth: hs256(), rateLimit: 3 } });
    await statuses(() => http.post('/books').set('Authorization', 'Bearer garbage').send({ title: 'x' }), 4);
    await http.post('/books').set('Authorization', `Bearer ${await token('books:write', { sub: 'writer' })}`).send({ title: 'Mine' }).expect(201);
    await http.post('/books').set('Authorization', 'Bearer garbage').send({ title: 'x' }).expect(429);
  });
});
