import { makeApp } from '../support/app';

/**
 * The validate phase (src/http/validate.ts): express-openapi-validator checks every request for a spec
 * operation against openapi.yaml, the first and every later one alike.
 */
describe('request validation against openapi.yaml', () => {
  it('when an operation is asked again and again, then every request is validated: bad input is refused each time, good input served', async () => {
    const { http } = makeApp();
    for (let round = 0; round < 3; round += 1) {
      await http.get('/books/1').expect(200);
      const badId = await http.get('/books/abc').expect(400);
      expect(badId.body.details[0].path).toBe('/params/id');
      const badBody = await http.post('/books').send({ title: 'T', pages: 'many' }).expect(400);
      expect(badBody.body.details[0].path).toBe('/body/pages');
      const unknownQuery = await http.get('/books').query({ nope: '1' }).expect(400);
      expect(unknownQuery.body.error).toMatch(/nope/);
    }
    await http.post('/books').send({ title: 'Valid' }).expect(201);
  });

  it('when a path parameter is percent-encoded, then it is validated decoded; one that does not decode is a 400', async () => {
    const { http } = makeApp();
    const encoded = await http.get('/books/%31').expect(200);
    expect(encoded.body).toMatchObject({ id: 1 });
    await http.get('/books/%E0%A4%A').expect(400);
  });
});
