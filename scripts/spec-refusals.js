// Why `npm run generate` (and `npm run dev` on a spec save) refuses the specs, in words that say what to change:
// the problems of the lint rules (redocly.yaml) and of the service's own contract checks (src/startup/), one line
// each, with where in openapi.yaml. An example that lacks a field its schema requires (the first thing a user meets
// after making a field required) is named by the operation and status it documents, in the order of the file.

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

module.exports = { SpecRefusal, lintRefusal, contractRefusal, pointerLabel };
