/**
 * Partner traffic for the failover tests: lanes that create deposits with an Idempotency-Key (retrying the same key
 * and body after a failure, as a partner does), record each one's bank transfer and approve it through the ops API,
 * keeping what was acknowledged (answered 2xx) and every answer's time and status.
 */
import { randomUUID } from 'node:crypto';
import { httpJson, type HttpResult, type Scenario } from '@kasa/testkit';

export interface AcknowledgedCreate {
  key: string;
  body: { externalUserId: string; amount: string };
  intentId: string;
  referenceNo: string;
  at: number;
}

export interface Answer {
  at: number;
  kind: 'create' | 'transfer' | 'approve';
  /** 0 when no HTTP answer came (connection refused or reset). */
  status: number;
}

export interface Traffic {
  creates: AcknowledgedCreate[];
  approvals: { intentId: string; at: number }[];
  answers: Answer[];
}

export interface TrafficOptions {
  gatewayUrl: string;
  apiKey: string;
  scenario: Scenario;
  lanes: number;
  /** Lanes start no new deposit once this returns true. */
  done: () => boolean;
  /** Whether each lane also records the transfer and approves (false: creates only). */
  approve: boolean;
  /** A failed create is retried with the same key and body until this long after `done()`. */
  retryGraceMs?: number;
}

async function call(send: () => Promise<HttpResult>): Promise<HttpResult> {
  try {
    return await send();
  } catch {
    return { status: 0, headers: new Headers(), body: null };
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Runs the lanes until `done()`; resolves with everything acknowledged and every answer. */
export async function runTraffic(options: TrafficOptions): Promise<Traffic> {
  const traffic: Traffic = { creates: [], approvals: [], answers: [] };
  const note = (kind: Answer['kind'], result: HttpResult) => traffic.answers.push({ at: Date.now(), kind, status: result.status });
  const create = (key: string, body: AcknowledgedCreate['body']) =>
    call(() =>
      httpJson(
        `${options.gatewayUrl}/api/v1/external/deposits`,
        'POST',
        { authorization: `Bearer ${options.apiKey}`, 'idempotency-key': key },
        body,
      ),
    );
  let doneAt: number | null = null;
  const stopRetrying = () => {
    if (!options.done()) return false;
    doneAt ??= Date.now();
    return Date.now() - doneAt > (options.retryGraceMs ?? 15_000);
  };

  const lane = async (lane: number) => {
    for (let n = 0; !options.done(); n += 1) {
      const key = randomUUID();
      const body = { externalUserId: `failover-${lane}-${n}`, amount: String(100_000 + lane * 1_000 + (n % 1_000)) };
      let created = await create(key, body);
      note('create', created);
      // A partner retries a failed create with the same key and body until it is answered.
      while (created.status !== 201 && !stopRetrying()) {
        await pause(100);
        created = await create(key, body);
        note('create', created);
      }
      if (created.status !== 201) continue;
      const { intentId, referenceNo } = created.body as { intentId: string; referenceNo: string };
      traffic.creates.push({ key, body, intentId, referenceNo, at: Date.now() });
      if (!options.approve) continue;
      const transfer = await call(() => options.scenario.transfer(referenceNo, body.amount));
      note('transfer', transfer);
      if (transfer.status !== 201) continue;
      const approved = await call(() => options.scenario.ops('POST', `/intents/${intentId}/approve`, {}));
      note('approve', approved);
      if (approved.status === 200) traffic.approvals.push({ intentId, at: Date.now() });
    }
  };
  await Promise.all(Array.from({ length: options.lanes }, (_, index) => lane(index)));
  return traffic;
}

/** The failures (5xx or no answer) among `answers`, and the window from the first to the last one. */
export function failureWindow(answers: Answer[]): { failures: number; firstAt: number | null; lastAt: number | null } {
  const failed = answers.filter((answer) => answer.status === 0 || answer.status >= 500);
  return {
    failures: failed.length,
    firstAt: failed.length > 0 ? Math.min(...failed.map((answer) => answer.at)) : null,
    lastAt: failed.length > 0 ? Math.max(...failed.map((answer) => answer.at)) : null,
  };
}
