import { makeApp } from '../support/app';
import { expectJsonError, expectTextError } from '../support/rest-expect';

const REQUIRED = ['en', 'fr', 'es', 'de', 'it', 'pt', 'nl', 'ja', 'zh', 'ar'];

describe('GET /greet/{lang} (greet)', () => {
  it('when each of the ten required languages is asked, then each answers 200 with its own non-empty greeting', async () => {
    const { http } = makeApp();
    const greetings = new Map<string, string>();
    for (const lang of REQUIRED) {
      const res = await http.get(`/greet/${lang}`).expect(200).expect('Content-Type', 'application/json; charset=utf-8');
      expect(res.body.lang).toBe(lang);
      expect(res.body.greeting.trim().length).toBeGreaterThan(0);
      greetings.set(lang, res.body.greeting);
    }
    expect(greetings.size).toBe(10);
  });

  it('when fr is asked, then the body is {"lang": "fr", "greeting": "Bonjour"}', async () => {
    const { http } = makeApp();
    await http.get('/greet/fr').expect(200, { lang: 'fr', greeting: 'Bonjour' });
  });

  it('when the code is in another case, then it matches case-insensitively and answers the lower-case code', async () => {
    const { http } = makeApp();
    await http.get('/greet/FR').expect(200, { lang: 'fr', greeting: 'Bonjour' });
    await http.get('/greet/De').expect(200, { lang: 'de', greeting: 'Hallo' });
  });

  it('when a region tag is given, then it falls back to its language (fr-CA -> fr, pt-BR -> pt, ZH-hant-TW -> zh)', async () => {
    const { http } = makeApp();
    await http.get('/greet/fr-CA').expect(200, { lang: 'fr', greeting: 'Bonjour' });
    expect((await http.get('/greet/pt-BR').expect(200)).body.lang).toBe('pt');
    expect((await http.get('/greet/ZH-hant-TW').expect(200)).body.lang).toBe('zh');
  });

  it('when the language is unknown, then it answers 404 as one line of plain text', async () => {
    const { http } = makeApp();
    expect(expectTextError(await http.get('/greet/xx'), 404)).toBe('No greeting for language "xx"');
    expectTextError(await http.get('/greet/xx-FR'), 404);
    expectTextError(await http.get(`/greet/${encodeURIComponent('é')}`), 404);
  });

  it('when the unknown code carries a line break, then the message is still one line', async () => {
    const { http } = makeApp();
    expectTextError(await http.get('/greet/x%0Ay'), 404);
  });

  it('when the code is longer than 64 characters, then it answers 400 as plain text', async () => {
    const { http } = makeApp();
    expectTextError(await http.get(`/greet/${'a'.repeat(65)}`), 400);
  });

  it('when a method other than GET is used, then it answers 405 as plain text with Allow: GET', async () => {
    const { http } = makeApp();
    const res = await http.post('/greet/en').send({});
    expectTextError(res, 405);
    expect(res.headers.allow).toBe('GET');
  });

  it('when no code is given (/greet/), then it is an unknown path: 404 in the JSON format', async () => {
    const { http } = makeApp();
    expectJsonError(await http.get('/greet/'), 404);
  });
});
