/** A JSON answer as tests read it. */
export interface HttpResult {
  status: number;
  headers: Headers;
  // Test assertions read arbitrary JSON shapes; `any` keeps them short.
  body: any; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** One JSON request over real HTTP; a body sets Content-Type: application/json. */
export async function httpJson(url: string, method: string, headers: Record<string, string>, body?: unknown): Promise<HttpResult> {
  const response = await fetch(url, {
    method,
    headers: { ...headers, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: text ? (JSON.parse(text) as unknown) : null };
}

/** Throws, naming the step and the answer, unless `result` has the expected status. */
export function expectStatus(result: HttpResult, status: number, what: string): HttpResult {
  if (result.status !== status) throw new Error(`${what}: expected ${status}, got ${result.status} ${JSON.stringify(result.body)}`);
  return result;
}
