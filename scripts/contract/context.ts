import { send, type HttpRequest, type HttpResponse } from './http';
import type { Reporter } from './reporter';
import type { SpecSchemas } from '../../src/spec-schemas';
import type { Operation, PathDoc, SpecModel } from './spec-model';

/** Everything a group of checks needs: where the service is, what the spec says, where to report. */
export interface KitContext {
  baseUrl: string;
  spec: SpecModel;
  validator: SpecSchemas;
  reporter: Reporter;
  /** Prints a line that is not a check (notes on what could not be exercised). */
  note: (line: string) => void;
  send: (req: HttpRequest) => Promise<HttpResponse>;
}

export function makeSender(baseUrl: string): (req: HttpRequest) => Promise<HttpResponse> {
  return (req) => send(baseUrl, req);
}

/** The path of an operation with its path parameters filled in (each value URI-encoded). */
export function fillPath(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{([^}]+)\}/g, (_m, name: string) => encodeURIComponent(String(values[name] ?? '')));
}

/** `/books/{id}` -> the `/books` path doc, when the spec has it. */
export function collectionOf(spec: SpecModel, template: string): PathDoc | undefined {
  const parent = template.replace(/\/\{[^}]+\}$/, '');
  return parent === template ? undefined : spec.paths.find((p) => p.template === parent);
}

/** `/books` -> the `/books/{id}` path doc, when the spec has it. */
export function itemOf(spec: SpecModel, template: string): PathDoc | undefined {
  return spec.paths.find((p) => p.template.startsWith(`${template}/{`) && !p.template.slice(template.length + 2).includes('/'));
}

export function operation(path: PathDoc | undefined, method: string): Operation | undefined {
  return path?.operations.find((o) => o.method === method);
}

/** A short, readable rendering of a value for check names and messages. */
export function show(value: unknown, max = 60): string {
  const text = String(JSON.stringify(value));
  return text.length > max ? `${text.slice(0, max - 3)}...` : text;
}
