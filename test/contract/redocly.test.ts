/**
 * Both served OpenAPI documents, built as the services build them (the gateway: `buildOpenApiDocument`, the
 * ledger: `buildOpsOpenApiDocument`), judged by one more tool nobody here wrote: `redocly lint` with its
 * `recommended` ruleset. Errors and warnings alike fail the test (a private ajv keyword such as `trIban` is an error:
 * OpenAPI allows only `x-` extensions beside JSON Schema's vocabulary; an example that its own schema refuses, such
 * as a webhook body carrying a field the schema does not list, is a warning).
 *
 * @redocly/cli has no Node API (its package exports only the `redocly` bin), so its bin runs as a child process.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { buildOpenApiDocument, buildOpsOpenApiDocument } from '@kasa/contracts';

interface Problem {
  ruleId: string;
  severity: 'error' | 'warn';
  message: string;
  location: Array<{ pointer: string }>;
}
interface LintReport {
  totals: { errors: number; warnings: number; ignored: number };
  problems: Problem[];
}

const cli = createRequire(import.meta.url).resolve('@redocly/cli/bin/cli.js');
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'kasa-redocly-'));
  // Its own config beside the documents, so no redocly.yaml elsewhere can change the ruleset.
  await writeFile(join(dir, 'redocly.yaml'), 'extends:\n  - recommended\n');
});
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

/** Runs `redocly lint --format=json` on a document written as the service serves it (its JSON text). */
async function lint(name: string, doc: unknown): Promise<LintReport> {
  const file = join(dir, `${name}.json`);
  await writeFile(file, JSON.stringify(doc));
  const stdout = await new Promise<string>((resolve, reject) => {
    execFile(
      process.execPath,
      [cli, 'lint', file, '--config', join(dir, 'redocly.yaml'), '--format=json', '--max-problems=1000'],
      // No telemetry and no update check: the test must not reach the network.
      { cwd: dir, env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' }, maxBuffer: 64 << 20 },
      // It exits 1 when it finds errors; the report on stdout says which, so only a missing report is a failure.
      (error, out, stderr) => (out.trim().startsWith('{') ? resolve(out) : reject(error ?? new Error(`no report from redocly: ${stderr}`))),
    );
  });
  return JSON.parse(stdout) as LintReport;
}

const where = (p: Problem) => `${p.ruleId} at ${p.location[0]?.pointer ?? '?'}: ${p.message}`;

describe.each([
  ['partner', () => buildOpenApiDocument('https://api.kasa.example')],
  ['ops', () => buildOpsOpenApiDocument('http://127.0.0.1:8081')],
] as const)('the %s OpenAPI document', (name, build) => {
  it("has no error and no warning from redocly's recommended ruleset", async () => {
    const report = await lint(name, build());
    const warnings = report.problems.filter((p) => p.severity === 'warn');
    process.stdout.write(
      `redocly lint (recommended), ${name} document: ${report.totals.errors} errors, ${report.totals.warnings} warnings\n`,
    );
    if (warnings.length > 0) process.stdout.write(`${warnings.map(where).join('\n')}\n`);
    expect(report.problems.filter((p) => p.severity === 'error').map(where)).toEqual([]);
    expect(warnings.map(where)).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  });
});

describe('the redocly check itself', () => {
  it('reports an example carrying a field its schema does not document as a warning', async () => {
    const doc = buildOpenApiDocument('https://api.kasa.example');
    const webhooks = doc.webhooks as Record<string, { post: { requestBody: { content: Record<string, { example: object }> } } }>;
    const body = webhooks['intent.approved']!.post.requestBody.content['application/json']!;
    body.example = { ...body.example, undocumented: true };
    const report = await lint('undocumented', doc);
    expect(report.problems.filter((p) => p.severity === 'warn').map((p) => p.ruleId)).toContain('no-invalid-media-type-examples');
  });

  it('reports a document that carries a private, non-`x-` keyword as an error', async () => {
    const doc = buildOpenApiDocument('https://api.kasa.example');
    const schemas = doc.components.schemas as Record<string, { properties: Record<string, Record<string, unknown>> }>;
    schemas.CreateWithdrawalRequest!.properties.targetIban!.trIban = true;
    const report = await lint('broken', doc);
    expect(report.problems.filter((p) => p.severity === 'error').map((p) => p.location[0]?.pointer)).toContain(
      '#/components/schemas/CreateWithdrawalRequest/properties/targetIban/trIban',
    );
  });
});
