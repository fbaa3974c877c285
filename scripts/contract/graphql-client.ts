import type { KitContext } from './context';
import { CheckFailure } from './reporter';

export interface GraphqlResult {
  status: number;
  media: string;
  body: { data?: Record<string, unknown> | null; errors?: { message: string; extensions?: Record<string, unknown> }[] };
}

/** POSTs one GraphQL request (GraphQL over HTTP, JSON) and parses the answer. */
export async function gql(ctx: KitContext, path: string, query: string, variables?: Record<string, unknown>): Promise<GraphqlResult> {
  const res = await ctx.send({
    method: 'POST',
    path,
    headers: { accept: 'application/graphql-response+json, application/json;q=0.9' },
    body: { query, variables },
  });
  let body: GraphqlResult['body'];
  try {
    body = JSON.parse(res.text);
  } catch {
    throw new CheckFailure(`${res.status} with a body that is not JSON: ${res.text.slice(0, 200)}`);
  }
  return { status: res.status, media: res.media, body };
}
