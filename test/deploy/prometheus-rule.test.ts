/**
 * k8s/base/prometheus-rule.yaml: a PrometheusRule whose alerts use only metrics the services register (read
 * from their /metrics at run time: the gateway's, the ledger's and the console's real apps over stand-in
 * dependencies, the webhook worker's registry as worker.ts builds it), and whose every alert has a runbook
 * in docs/operations.md. No PostgreSQL, Redis or network is needed.
 */
import { describe, expect, it } from '@jest/globals';
import request from 'supertest';
import { parse } from 'yaml';
import type { Express } from 'express';
import { createLogger } from '@kasa/logger';
import { createHttpMetrics } from '@kasa/http';
import { loadConfig } from '../../packages/config/src/index.js';
import { createApp as createGatewayApp } from '../../services/gateway/src/app.js';
import type { GatewayDeps } from '../../services/gateway/src/gateway-deps.js';
import { createApp as createLedgerApp } from '../../services/ledger/src/app.js';
import { siteOwnedRecordsOf, type LedgerDeps } from '../../services/ledger/src/ledger-deps.js';
import { createApp as createConsoleApp } from '../../services/console/src/app.js';
import type { ConsoleDeps } from '../../services/console/src/console-deps.js';
import { WorkerMetrics } from '../../services/webhook-worker/src/metrics/worker-metrics.js';
import { readRepoFile } from './common.js';

interface Rule {
  alert?: string;
  record?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

interface PrometheusRule {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace: string; labels?: Record<string, string> };
  spec: { groups: Array<{ name: string; rules: Rule[] }> };
}

const RULE_FILE = 'k8s/base/prometheus-rule.yaml';

/** Series Prometheus makes itself, not any service. */
const PROMETHEUS_SERIES = new Set(['up', 'scrape_duration_seconds', 'scrape_samples_scraped']);

const PROMQL_KEYWORDS = new Set(['and', 'or', 'unless', 'bool', 'by', 'without', 'on', 'ignoring', 'group_left', 'group_right', 'offset']);

/**
 * The metric names a PromQL expression reads. Strings, label matchers, ranges, grouping label lists and
 * offsets are removed first; what is left that is an identifier and not a function call or a keyword is a
 * metric name.
 */
export function metricNamesOf(expr: string): string[] {
  const text = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""')
    .replace(/\{[^}]*\}/g, ' ')
    .replace(/\[[^\]]*\]/g, ' ')
    .replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, ' ')
    .replace(/\boffset\s+\d+[smhdwy]/g, ' ');
  const names = new Set<string>();
  for (const match of text.matchAll(/(?<![\w:.])([A-Za-z_:][A-Za-z0-9_:]*)(\s*\()?/g)) {
    const [, name, call] = match as unknown as [string, string, string | undefined];
    if (call || PROMQL_KEYWORDS.has(name)) continue;
    names.add(name);
  }
  return [...names];
}

/** Every series name a /metrics page can have: each metric's name, and a histogram's or summary's parts. */
function seriesNames(page: string): Set<string> {
  const names = new Set<string>();
  for (const [, name, type] of page.matchAll(/^# TYPE (\S+) (\S+)$/gm)) {
    names.add(name as string);
    if (type === 'histogram') for (const part of ['_bucket', '_count', '_sum']) names.add(`${name}${part}`);
    if (type === 'summary') for (const part of ['_count', '_sum']) names.add(`${name}${part}`);
  }
  return names;
}

const config = loadConfig({
  NODE_ENV: 'test',
  DATABASE_URL: 'postgresql://postgres@127.0.0.1:1/unused',
  REDIS_URL: 'redis://127.0.0.1:1',
  INTERNAL_TOKEN: 'internal-token-for-the-rule-test',
  OPS_BOOTSTRAP_TOKEN: 'ops-token-for-the-rule-test',
  CURSOR_SIGNING_KEY: 'cursor-key-for-the-rule-test',
});
const logger = (service: string) => createLogger({ service, silent: true });

/** The services' real apps over stand-ins: nothing is connected, and the scrape-time reads answer at once. */
function apps(): Record<string, Express> {
  const queue = { getJobCounts: async () => ({ wait: 0 }), getWaiting: async () => [], on: () => undefined };
  const ledgerDeps = {
    config,
    logger: logger('ledger'),
    clock: { now: () => new Date() },
    pool: { totalCount: 0, idleCount: 0, waitingCount: 0, options: { max: 20 } },
    readPool: null,
    events: { outboxBacklog: async () => ({ count: 0, oldestSince: null }), deadCount: async () => 0 },
    expiries: { oldestDue: async () => null },
    // The operator-scope guard checks the record kinds when the app is built; no request here looks one up.
    siteOwnedRecords: siteOwnedRecordsOf(() => {
      throw new Error('no record is looked up here');
    }),
    webhookQueue: queue,
    expiryQueue: queue,
  } as unknown as LedgerDeps;
  const gatewayDeps = { config, logger: logger('gateway') } as unknown as GatewayDeps;
  const consoleDeps = { config, logger: logger('console'), clock: () => new Date() } as unknown as ConsoleDeps;
  return { gateway: createGatewayApp(gatewayDeps), ledger: createLedgerApp(ledgerDeps), console: createConsoleApp(consoleDeps) };
}

/** Every series name the four services expose. */
async function registeredSeries(): Promise<Set<string>> {
  const names = new Set<string>();
  for (const app of Object.values(apps())) {
    const page = await request(app).get('/metrics');
    expect(page.status).toBe(200);
    for (const name of seriesNames(page.text)) names.add(name);
  }
  // The worker's registry, built as services/webhook-worker/src/worker.ts builds it.
  const worker = createHttpMetrics('webhook-worker');
  new WorkerMetrics(worker.registry, async () => 0);
  for (const name of seriesNames(await worker.registry.metrics())) names.add(name);
  return names;
}

function loadRule(): PrometheusRule {
  return parse(readRepoFile(RULE_FILE)) as PrometheusRule;
}

const alertsOf = (rule: PrometheusRule) => rule.spec.groups.flatMap((group) => group.rules.filter((r) => r.alert !== undefined));

describe('reading metric names out of PromQL', () => {
  it('finds metric names and leaves out functions, keywords, labels, ranges and strings', () => {
    expect(
      metricNamesOf(
        'sum by (service) (rate(http_request_duration_seconds_count{status=~"5..", route!~"/healthz"}[5m])) / on (service) group_left up offset 5m > 0.05 and max_over_time(kasa_x[10m]) == bool 1',
      ).sort(),
    ).toEqual(['http_request_duration_seconds_count', 'kasa_x', 'up']);
  });
});

describe(RULE_FILE, () => {
  it('is a PrometheusRule in the kasa namespace with named groups of alerts', () => {
    const rule = loadRule();
    expect(rule).toMatchObject({
      apiVersion: 'monitoring.coreos.com/v1',
      kind: 'PrometheusRule',
      metadata: { name: 'kasa', namespace: 'kasa' },
    });
    expect(rule.spec.groups.length).toBeGreaterThan(0);
    const alerts = alertsOf(rule);
    expect(alerts.length).toBeGreaterThanOrEqual(7);
    expect(new Set(alerts.map((a) => a.alert)).size).toBe(alerts.length);
    for (const alert of alerts) {
      expect(alert.alert).toMatch(/^Kasa[A-Z][A-Za-z]+$/);
      expect(['critical', 'warning']).toContain(alert.labels?.severity);
      expect(alert.annotations?.summary).toBeTruthy();
      expect(alert.annotations?.runbook).toBe(`docs/operations.md, Metrics and alerts: ${alert.alert}`);
      if (alert.for !== undefined) expect(alert.for).toMatch(/^\d+[smh]$/);
    }
  });

  it('alerts only on metrics the services register', async () => {
    const registered = await registeredSeries();
    // The gauges and counters this rule is about are among them.
    for (const name of ['kasa_outbox_oldest_unenqueued_age_seconds', 'kasa_gateway_rate_limited_total', 'kasa_db_pool_waiting_requests'])
      expect(registered).toContain(name);
    const unknown = alertsOf(loadRule()).flatMap((alert) =>
      metricNamesOf(alert.expr)
        .filter((name) => !registered.has(name) && !PROMETHEUS_SERIES.has(name))
        .map((name) => `${alert.alert}: ${name}`),
    );
    expect(unknown).toEqual([]);
  });

  it('has a runbook entry in docs/operations.md for every alert', () => {
    const operations = readRepoFile('docs/operations.md');
    const missing = alertsOf(loadRule())
      .map((alert) => alert.alert as string)
      .filter((name) => !new RegExp(`^#+ .*\\b${name}\\b`, 'm').test(operations));
    expect(missing).toEqual([]);
  });
});
