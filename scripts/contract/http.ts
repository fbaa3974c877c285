export interface HttpRequest {
  method: string;
  path: string;
  headers?: Record<string, string>;
  /** Sent as is (a string), or JSON-encoded with `Content-Type: application/json` (anything else). */
  body?: unknown;
}

export interface HttpResponse {
  status: number;
  headers: Headers;
  text: string;
  /** The media type of the response without parameters, lower case ('' when absent). */
  media: string;
}

/** One HTTP exchange against the base URL, with a timeout; the body is read whole. */
export async function send(baseUrl: string, req: HttpRequest, timeoutMs = 10_000): Promise<HttpResponse> {
  const headers: Record<string, string> = { accept: 'application/json, text/plain;q=0.9', ...req.headers };
  let body: string | undefined;
  if (typeof req.body === 'string') {
    body = req.body;
  } else if (req.body !== undefined) {
    body = JSON.stringify(req.body);
    headers['content-type'] ??= 'application/json';
  }
  const res = await fetch(joinUrl(baseUrl, req.path), {
    method: req.method,
    headers,
    body,
    redirect: 'manual',
    signal: AbortSignal.timeout(timeoutMs),
  });
  const text = await res.text();
  const media = (res.headers.get('content-type') ?? '').split(';')[0].trim().toLowerCase();
  return { status: res.status, headers: res.headers, text, media };
}

/** `base` without a trailing slash, joined with an absolute path. */
export function joinUrl(base: string, path: string): string {
  return base.replace(/\/+$/, '') + path;
}
