import { makeGqlApp } from './support';

describe('REST and GraphQL share one data set', () => {
  it('when a book is created with POST /books, then { book(id) } and { books } return it', async () => {
    const { http, gql } = makeGqlApp();
    const created = await http.post('/books').send({ title: 'Middlemarch', pages: 880 }).expect(201);
    const res = await gql('query($id: ID!) { book(id: $id) { id title pages } books { id } }', { id: String(created.body.id) });
    expect(res.body.data?.book).toEqual({ id: String(created.body.id), title: 'Middlemarch', pages: 880 });
    expect(res.body.data?.books).toContainEqual({ id: String(created.body.id) });
  });

  it('when a book is changed and deleted over REST, then GraphQL sees each change', async () => {
    const { http, gql } = makeGqlApp();
    await http.put('/books/2').send({ title: 'Renamed' }).expect(200);
    expect((await gql('{ book(id: "2") { title } }')).body).toEqual({ data: { book: { title: 'Renamed' } } });
    await http.delete('/books/2').expect(204);
    expect((await gql('{ book(id: "2") { title } }')).body).toEqual({ data: { book: null } });
  });

  it('when a todo is added with addTodo, then GET /todos lists it with the title as text', async () => {
    const { http, gql } = makeGqlApp();
    const res = await gql('mutation { addTodo(title: "Fix the bike") { id } }');
    const rest = await http.get('/todos').expect(200);
    expect(rest.body).toContainEqual({ id: Number(res.body.data?.addTodo && (res.body.data.addTodo as { id: string }).id), text: 'Fix the bike', done: false });
  });

  it('when a todo is created with POST /todos, then { todos } returns it with text as title', async () => {
    const { http, gql } = makeGqlApp();
    const created = await http.post('/todos').send({ text: 'Pay rent' }).expect(201);
    const res = await gql('{ todos { id title done } }');
    expect(res.body.data?.todos).toContainEqual({ id: String(created.body.id), title: 'Pay rent', done: false });
  });

  it('when GraphQL and REST list books, then both show the same records', async () => {
    const { http, gql } = makeGqlApp();
    const rest = await http.get('/books').expect(200);
    const res = await gql('{ books { id title pages } }');
    expect(res.body.data?.books).toEqual(rest.body.map((b: { id: number; title: string; pages: number }) => ({ ...b, id: String(b.id) })));
  });
});
