import fc from 'fast-check';

/** Path segments for `{id}`: boundaries, non-numbers, encodings, unicode, long digit strings. */
export const idSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '0', '-1', '1.5', '1e309', '1e3', '9007199254740992', '9007199254740991', '01', '0001', '1', '2', '3', '999999',
    '%00', '%2F', '%20', '%201', '1%00', '0x10', 'NaN', 'Infinity', '-0', '+1', '%EF%BC%91', '%F0%9F%92%A9', 'null', 'true',
    '1;2', '1,2', '%25', '..', '1.', '.1',
  ),
  fc.integer().map(String),
  fc.bigInt({ min: -(2n ** 80n), max: 2n ** 80n }).map(String),
  fc.stringMatching(/^\d{16,80}$/),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 20 }).map(encodeURIComponent),
);

/** Path segments for `{lang}`. */
export const langSegment: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('en', 'FR', 'fr-CA', 'zh-Hant-TW', 'xx', '-', 'a'.repeat(64), 'a'.repeat(65), '%00', '%F0%9F%92%A9', '__proto__', 'constructor'),
  fc.string({ unit: 'grapheme', minLength: 1, maxLength: 80 }).map(encodeURIComponent),
);

const BOUNDARY_NUMBERS = ['0', '-1', '1', '1000', '1001', '1.5', '1e309', '9007199254740992', '', 'abc', '%00', '01', '1e2'];
/** A query string for list operations: boundaries, duplicates, unknown parameters, encodings. */
export const queryString: fc.Arbitrary<string> = fc
  .array(
    fc.tuple(fc.constantFrom('limit', 'offset', 'limit', 'offset', 'sort', '__proto__', 'limit[]', ''), fc.oneof(fc.constantFrom(...BOUNDARY_NUMBERS), fc.nat().map(String))),
    { maxLength: 3 },
  )
  .map((pairs) => (pairs.length ? '?' + pairs.map(([k, v]) => `${k}=${v}`).join('&') : ''));

const FIELDS = ['title', 'text', 'name', 'body', 'pages', 'done', 'id', 'extra', '__proto__', 'constructor', 'prototype', '', 'TITLE'];

const leaf: fc.Arbitrary<unknown> = fc.oneof(
  fc.string({ maxLength: 30 }),
  fc.constantFrom('', '   ', '\u0000', 'x'.repeat(1000), 'x'.repeat(1001), 'ü'.repeat(1000), '\uD800', '\u200B', 'a\nb'),
  fc.integer(),
  fc.constantFrom(0, -1, 2147483647, 2147483648, 1.5, 1e308, -0, 9007199254740992),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.string({ maxLength: 5 }), { maxLength: 3 }),
  fc.constant({ polluted: 'yes' }),
  fc.constant({ prototype: { polluted: 'yes' } }),
);

/** JSON object text whose keys may include `__proto__` and friends (written raw, so the key survives). */
const rawObject: fc.Arbitrary<string> = fc
  .array(fc.tuple(fc.constantFrom(...FIELDS), leaf), { maxLength: 4 })
  .map((entries) => `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${JSON.stringify(v)}`).join(',')}}`);

const deep: fc.Arbitrary<string> = fc.oneof(
  fc.integer({ min: 10, max: 5000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
  fc.integer({ min: 10, max: 3000 }).map((n) => '{"title":'.repeat(n) + '"x"' + '}'.repeat(n)),
  fc.integer({ min: 1, max: 2000 }).map((n) => '['.repeat(n)),
);

/** Request bodies as bytes: valid-ish objects, any JSON, deep nesting, huge, invalid JSON, invalid UTF-8, empty. */
export const bodyBytes: fc.Arbitrary<Buffer> = fc.oneof(
  { weight: 5, arbitrary: rawObject.map((s) => Buffer.from(s)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((v) => Buffer.from(JSON.stringify(v) ?? 'null')) },
  { weight: 1, arbitrary: deep.map((s) => Buffer.from(s)) },
  {
    weight: 2,
    arbitrary: fc.constantFrom(
      '',
      ' ',
      'not json',
      '{"title":"a",}',
      '{"title": "a"} trailing',
      '{"__proto__":{"polluted":"yes"}}',
      '{"title":"ok","__proto__":{"polluted":"yes"}}',
      '{"constructor":{"prototype":{"polluted":"yes"}}}',
      '{"title":"a","title":"b"}',
      `{"title":"${'x'.repeat(150 * 1024)}"}`,
    ).map((s) => Buffer.from(s)),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      Buffer.from([0x7b, 0x22, 0x74, 0x69, 0x74, 0x6c, 0x65, 0x22, 0x3a, 0x22, 0xff, 0xfe, 0x22, 0x7d]),
      Buffer.from([0xc3, 0x28]),
      Buffer.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
      Buffer.from('{"text":"\u00e9"}', 'latin1'),
      Buffer.from('{"name":"a"}', 'utf16le'),
    ),
  },
);

/** Content-Type header values, or undefined for none. */
export const contentType: fc.Arbitrary<string | undefined> = fc.oneof(
  { weight: 4, arbitrary: fc.constant('application/json') },
  {
    weight: 4,
    arbitrary: fc.constantFrom(
      undefined, '', 'application/json; charset=utf-8', 'application/json; charset=UTF-8', 'APPLICATION/JSON', 'application/json; charset=latin1',
      'application/json; charset=utf-16', 'application/json; charset=nope', 'application/json;;', 'application/json; a=b; c="d"',
      'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x', 'application/merge-patch+json',
      'application/vnd.api+json', 'garbage', '*/*', 'application/*',
    ),
  },
  { weight: 1, arbitrary: fc.string({ maxLength: 20 }).map((p) => `application/json; x=${encodeURIComponent(p)}`) },
);

export const accept: fc.Arbitrary<string | undefined> = fc.constantFrom(undefined, '*/*', 'application/json', 'text/plain', 'text/html', 'image/png', 'application/xml;q=0.9', '');
