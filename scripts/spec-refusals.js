// Why `npm run generate` (and `npm run dev` on a spec save) refuses the specs, in words that say what to change:
// the problems of the lint rules (redocly.yaml), of the service's own contract checks (src/startup/) and of the
// project's seed file against the new contract, one line each, with where. An example that lacks a field its schema
// requires (the first thing a user meets after making a field required) is named by the operation and status it
// documents, in the order of the file; a seed record that lacks it, by its collection, index and id.

/** The specs cannot be used as they are: `title` says why and what to do, `lines` name each place (one line each). */
class SpecRefusal extends Error {
  constructor(title, lines) {
    super(`${title}\n${lines.map((line) => `  ${line}`).join('\n')}`);
    this.title = title;
    this.lines = lines;
  }
}

const unescape = (segment) => decodeURIComponent(segment).replace(/~1/g, '/').replace(/~0/g, '~');

/** Every operation whose response `status` is `$ref: #/components/responses/<name>`, as `GET /books 200`. */
function usesOfResponse(doc, name) {
  const ref = `#/components/responses/${name}`;
  const uses = [];
  for (const [template, item] of Object.entries(doc?.paths ?? {})) {
    for (const [method, op] of Object.entries(item ?? {})) {
      for (const [status, response] of Object.entries(op?.responses ?? {})) if (response?.$ref === ref) uses.push(`${method.toUpperCase()} ${template} ${status}`);
    }
  }
  return uses;
}

/** What a JSON pointer into openapi.yaml is, in the words of the API: `POST /books 201 example`, `response BookList example, item 0 (GET /books 200)`. */
function pointerLabel(doc, pointer) {
  const parts = pointer.replace(/^#?\//, '').split('/').map(unescape);
  const exampleAt = parts.findIndex((part) => part === 'example' || part === 'examples');
  const example = exampleAt < 0 ? '' : parts[exampleAt] === 'examples' ? ` example "${parts[exampleAt + 1]}"` : ' example';
  const tail = exampleAt < 0 ? [] : parts.slice(exampleAt + (parts[exampleAt] === 'examples' ? 3 : 1));
  const item = tail.length && /^\d+$/.test(tail[0]) ? `, item ${tail[0]}` : '';
  if (parts[0] === 'paths') {
    const [, template, method, section, key] = parts;
    const op = `${String(method).toUpperCase()} ${template}`;
    if (section === 'responses') return key === undefined ? `${op} responses` : `${op} ${key}${example || ' response'}${item}`;
    if (section === 'requestBody') return `${op} request body${example}${item}`;
    if (section === 'parameters') return `${op} parameter ${doc?.paths?.[template]?.[method]?.parameters?.[key]?.name ?? key}${example}`;
    return parts.length > 3 ? `${op} ${parts.slice(3).join('/')}` : op;
  }
  if (parts[0] === 'components' && parts[1] === 'responses') {
    const uses = usesOfResponse(doc, parts[2]);
    return `response ${parts[2]}${example}${item}${uses.length ? ` (${uses.join(', ')})` : ''}`;
  }
  if (parts[0] === 'components') return `${parts[1].replace(/s$/, '')} ${parts[2]}${example}${item}`;
  return parts.join('/');
}

/**
 * The refusal for the lint problems of openapi.yaml (Redocly's, with the project's redocly.yaml), or undefined when
 * there is no error. `lineOf(problem)` gives the problem's line and column. When every error is an example that
 * lacks a property its schema requires, the refusal says so and names each example; otherwise each problem is one
 * line with its rule.
 */
function lintRefusal(doc, problems, lineOf) {
  const errors = problems.filter((p) => p.severity === 'error').map((p) => ({ ...p, at: lineOf(p), pointer: p.location?.[0]?.pointer ?? '' }));
  if (!errors.length) return undefined;
  errors.sort((a, b) => a.at.line - b.at.line || a.at.col - b.at.col);
  const lacking = errors.map((p) => /^Example value must conform to the schema: .*must have required property '([^']+)'/.exec(p.message)?.[1]);
  if (lacking.every(Boolean)) {
    const fields = [...new Set(lacking)];
    const lines = errors.map((p, i) => `openapi.yaml:${p.at.line} ${pointerLabel(doc, p.pointer)}: add ${lacking[i]}`);
    const title = `openapi.yaml's own examples lack ${fields.join(', ')}, which ${fields.length > 1 ? 'their schemas require' : 'its schema requires'}: add ${fields.length > 1 ? 'them' : 'it'} to each example below, then generate again (or keep the field optional)`;
    return new SpecRefusal(title, lines);
  }
  const lines = errors.map((p) => `openapi.yaml:${p.at.line}:${p.at.col} ${pointerLabel(doc, p.pointer)}: ${p.message.replace(/\.$/, '')} (${p.ruleId})`);
  return new SpecRefusal(`openapi.yaml breaks ${errors.length === 1 ? 'a lint rule' : `${errors.length} lint rules`} (redocly.yaml, as npm run lint:openapi checks):`, lines);
}

/** The refusal for what the service's contract checks find in the specs (src/startup/contract-check.ts, specProblems). */
function contractRefusal(problems) {
  if (!problems.length) return undefined;
  return new SpecRefusal('the contract cannot be served as written (the start would refuse it too):', problems);
}

/**
 * The refusal for a seed file that does not fit the contract (`file`, its parsed JSON `data`), or undefined when it
 * fits. `validate(data)` throws what the start's own check throws (validateSeed, src/store/seed.ts: the first
 * problem, `invalid seed data in <file>: books[0] ...`); each record it refuses is set aside and the rest checked
 * again, so every such record is named, one line each, with its line in the file (`lineOf(collection, index)`). A
 * record of a collection others point at (`isParent`) ends the search: setting it aside would make its children's
 * links fail too.
 */
function seedRefusal(file, data, { validate, isParent, lineOf }) {
  const working = structuredClone(data);
  const origins = {};
  const lines = [];
  const lacking = [];
  for (let round = 0; round < 1000; round += 1) {
    try {
      validate(working);
      break;
    } catch (err) {
      const message = String(err?.message ?? err);
      const match = /^invalid seed data in [^:]*: (\w+)\[(\d+)\](.*)$/s.exec(message);
      if (!match || !Array.isArray(working[match[1]])) {
        lines.push(`${file}: ${message.replace(/^invalid seed data in [^:]*: /, '')}`);
        break;
      }
      const [, name, at, rest] = match;
      const index = Number(at);
      origins[name] ??= working[name].map((_, i) => i);
      const id = working[name][index]?.id;
      const original = origins[name][index];
      const line = lineOf(name, original);
      const where = `${file}${line ? `:${line}` : ''} ${name}[${original}]${id === undefined ? '' : ` (id ${id})`}`;
      const field = /^ \(root\) must have required property '([^']+)'$/.exec(rest)?.[1];
      lacking.push(field);
      lines.push(field ? `${where}: add ${field}` : `${where}:${rest.replace(/^\./, ' .')}`);
      if (isParent(name)) break;
      working[name].splice(index, 1);
      origins[name].splice(index, 1);
    }
  }
  if (!lines.length) return undefined;
  if (lacking.every(Boolean)) {
    const fields = [...new Set(lacking)];
    const it = fields.length > 1 ? 'them' : 'it';
    return new SpecRefusal(`${file}, the data a new store starts with, lacks ${fields.join(', ')}, which the contract requires: add ${it} to each record below, then generate again (or give ${it} a default in the contract)`, lines);
  }
  return new SpecRefusal(`${file} does not fit the contract (a start that loads it would refuse it):`, lines);
}

module.exports = { SpecRefusal, lintRefusal, contractRefusal, seedRefusal, pointerLabel };
