/**
 * The services a sandbox integration runs against: the ledger and gateway (the gateway's harness), the webhook worker,
 * and an HTTPS receiver whose CA the test makes. The gateway trusts that CA too: it sends the test webhooks itself.
 */
import { startHarness } from '../../../services/gateway/test/harness.js';
import { startWorker } from '../../../services/webhook-worker/src/index.js';
import { makeTestTls, startReceiver } from '../../../services/webhook-worker/test/support/receiver.js';
import { FAST_DELIVERY_ENV, type Stack } from '../../../services/webhook-worker/test/support/stack.js';

export async function startSandboxStack(): Promise<Stack> {
  const tls = makeTestTls();
  const h = await startHarness({ ...FAST_DELIVERY_ENV, WEBHOOK_CA_FILE: tls.caFile });
  const receiver = await startReceiver(tls);
  const worker = await startWorker(h.env.config, 0, { ca: tls.ca });
  return {
    h,
    tls,
    receiver,
    worker,
    startWorker: () => Promise.reject(new Error('one worker is enough here')),
    async stop() {
      await worker.stop();
      await receiver.close();
      await h.stop();
      tls.cleanup();
    },
  };
}
