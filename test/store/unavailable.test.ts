import { isUnavailable } from '../../src/store/postgres/pool';

describe('isUnavailable (which driver errors mean "storage unreachable")', () => {
  const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

  it.each([
    ['connection refused', withCode('ECONNREFUSED')],
    ['connection reset', withCode('ECONNRESET')],
    ['server shutting down (57P01)', withCode('57P01', 'terminating connection due to administrator command')],
    ['server starting up (57P03)', withCode('57P03', 'the database system is starting up')],
    ['statement timeout (57014)', withCode('57014', 'canceling statement due to statement timeout')],
    ['connection failure (08006)', withCode('08006')],
    ['too many connections (53300)', withCode('53300')],
    ['pool connect timeout', new Error('timeout exceeded when trying to connect')],
    ['lost connection', new Error('Connection terminated unexpectedly')],
    ['client read timeout', new Error('Query read timeout')],
    ['refused on every address', new AggregateError([withCode('ECONNREFUSED')], '')],
  ])('when the error is %s, then it is unavailable', (_name, err) => {
    expect(isUnavailable(err)).toBe(true);
  });

  it.each([
    ['a syntax error (42601)', withCode('42601', 'syntax error at or near "SELEC"')],
    ['a unique violation (23505)', withCode('23505', 'duplicate key value')],
    ['a plain bug', new TypeError('cannot read properties of undefined')],
    ['not an error', 'ECONNREFUSED'],
  ])('when the error is %s, then it is not unavailable (it stays a 500)', (_name, err) => {
    expect(isUnavailable(err)).toBe(false);
  });
});
