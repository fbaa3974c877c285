import { makeApp, snapshot } from '../support/app';
import { expectJsonError } from '../support/rest-expect';

/**
 * An empty value of an optional header parameter the operation declares is the header's absence, as
 * tools that exercise a spec send them (Dredd sends `If-Match:` for every optional header without an
 * example) and as Go's net/http reads the preconditions. Node trims a value's surrounding blanks, so a
 * blank value arrives empty too.
 */
describe('an empty optional header parameter is absent', () => {
  for (const value of ['', '   ']) {
    const shown = JSON.stringify(value);
    describe(`value ${shown}`, () => {
      it('when PUT /books/{id} carries an empty If-Match, then the update is a normal 200', async () => {
        const { http } = makeApp();
        const res = await http.put('/books/1').set('If-Match', value).send({ title: 'Updated', pages: 1 }).expect(200);
        expect(res.body).toEqual({ id: 1, title: 'Updated', pages: 1 });
        // The header is read when it has a value: a tag that does not match refuses the write.
        expectJsonError(await http.put('/books/1').set('If-Match', '"other"').send({ title: 'Again' }), 412);
      });

      it('when DELETE /books/{id} carries an empty If-Match and If-None-Match, then the delete is a normal 204', async () => {
        const { http } = makeApp();
        await http.delete('/books/2').set('If-Match', value).set('If-None-Match', value).expect(204);
        await http.get('/books/2').expect(404);
      });

      it('when GET /books/{id} carries an empty If-None-Match, then the answer is a normal 200 with the book', async () => {
        const { http } = makeApp();
        const plain = await http.get('/books/1').expect(200);
        const res = await http.get('/books/1').set('If-None-Match', value).expect(200);
        expect(res.body).toEqual(plain.body);
        expect(res.headers.etag).toBe(plain.headers.etag);
        // With the current tag it is a 304: the header is read when it has a value.
        await http.get('/books/1').set('If-None-Match', plain.headers.etag).expect(304);
      });

      it('when POST /books carries an empty Idempotency-Key, then it is a normal 201 and nothing is kept under a key', async () => {
        const { http, store } = makeApp();
        const before = (await snapshot(store)).books.length;
        const first = await http.post('/books').set('Idempotency-Key', value).send({ title: 'First' }).expect(201);
        // Another body with the same empty key is not "the key reused" (422): it is another create.
        const second = await http.post('/books').set('Idempotency-Key', value).send({ title: 'Second' }).expect(201);
        // The same body again is not a replay: a third record.
        const third = await http.post('/books').set('Idempotency-Key', value).send({ title: 'First' }).expect(201);
        for (const res of [first, second, third]) expect(res.headers['idempotent-replayed']).toBeUndefined();
        expect(new Set([first.body.id, second.body.id, third.body.id]).size).toBe(3);
        expect((await snapshot(store)).books.length).toBe(before + 3);
      });
    });
  }
});
