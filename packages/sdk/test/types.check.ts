/**
 * Compile-time proof that the SDK's method inputs and outputs ARE the generated OpenAPI types: `npm run typecheck`
 * compiles this file (tsconfig.json includes packages/[star]/test), and any drift fails it. Each expected type is
 * spelled out from `operations` (path, method's request body, success status), independently of how client.ts
 * names them. Nothing here runs.
 */
import type { KasaApiError, KasaClient, verifyWebhook, WebhookEvent } from '../src/index.js';
import type { AttemptView } from '@kasa/contracts';
import type { components, operations } from '../src/generated/kasa-api.js';

/** True only when A and B are the same type (not merely assignable one way). */
type Equal<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
type Expect<T extends true> = T;

type Json<T> = T extends { content: { 'application/json': infer B } } ? B : never;
type Input<F> = F extends (...args: infer A) => unknown ? A : never;
type Output<F> = F extends (...args: never[]) => Promise<infer R> ? R : never;
type Item<F> = F extends (...args: never[]) => AsyncGenerator<infer I> ? I : never;
type Client = KasaClient;

export type SdkMatchesTheContract = [
  // deposits.create(body, { idempotencyKey? }) -> 201 body
  Expect<Equal<Input<Client['deposits']['create']>[0], Json<operations['createDeposit']['requestBody']>>>,
  Expect<Equal<Output<Client['deposits']['create']>, Json<operations['createDeposit']['responses'][201]>>>,
  Expect<Equal<NonNullable<Input<Client['deposits']['create']>[1]>['idempotencyKey'], string | undefined>>,

  // intents
  Expect<Equal<Input<Client['intents']['get']>[0], operations['getIntent']['parameters']['path']['intentId']>>,
  Expect<Equal<Output<Client['intents']['get']>, Json<operations['getIntent']['responses'][200]>>>,
  Expect<Equal<NonNullable<Input<Client['intents']['list']>[0]>, NonNullable<operations['listIntents']['parameters']['query']>>>,
  Expect<Equal<Output<Client['intents']['list']>, Json<operations['listIntents']['responses'][200]>>>,
  Expect<Equal<NonNullable<Input<Client['intents']['iterate']>[0]>, NonNullable<operations['listIntents']['parameters']['query']>>>,
  Expect<Equal<Item<Client['intents']['iterate']>, Json<operations['listIntents']['responses'][200]>['data'][number]>>,

  // withdrawals
  Expect<Equal<Input<Client['withdrawals']['create']>[0], Json<operations['createWithdrawal']['requestBody']>>>,
  Expect<Equal<Output<Client['withdrawals']['create']>, Json<operations['createWithdrawal']['responses'][201]>>>,
  Expect<Equal<Input<Client['withdrawals']['get']>[0], operations['getWithdrawal']['parameters']['path']['withdrawalId']>>,
  Expect<Equal<Output<Client['withdrawals']['get']>, Json<operations['getWithdrawal']['responses'][200]>>>,
  Expect<Equal<NonNullable<Input<Client['withdrawals']['list']>[0]>, NonNullable<operations['listWithdrawals']['parameters']['query']>>>,
  Expect<Equal<Output<Client['withdrawals']['list']>, Json<operations['listWithdrawals']['responses'][200]>>>,
  Expect<Equal<Item<Client['withdrawals']['iterate']>, Json<operations['listWithdrawals']['responses'][200]>['data'][number]>>,

  // events
  Expect<Equal<Input<Client['events']['get']>[0], operations['getEvent']['parameters']['path']['eventId']>>,
  Expect<Equal<Output<Client['events']['get']>, Json<operations['getEvent']['responses'][200]>>>,
  Expect<Equal<NonNullable<Input<Client['events']['list']>[0]>, NonNullable<operations['listEvents']['parameters']['query']>>>,
  Expect<Equal<Output<Client['events']['list']>, Json<operations['listEvents']['responses'][200]>>>,
  Expect<Equal<Item<Client['events']['iterate']>, Json<operations['listEvents']['responses'][200]>['data'][number]>>,
  Expect<Equal<Input<Client['events']['replay']>[0], operations['replayEvent']['parameters']['path']['eventId']>>,
  Expect<Equal<Output<Client['events']['replay']>, Json<operations['replayEvent']['responses'][202]>>>,
  Expect<Equal<Input<Client['events']['recover']>[0], Json<operations['recoverEvents']['requestBody']>>>,
  Expect<Equal<Output<Client['events']['recover']>, Json<operations['recoverEvents']['responses'][200]>>>,
  Expect<Equal<NonNullable<Input<Client['events']['recover']>[1]>['idempotencyKey'], string | undefined>>,
  // events.since(checkpoint?) yields listEvents items; its query is listEvents' without the window and cursor.
  Expect<
    Equal<
      ReturnType<Client['events']['since']> extends AsyncIterable<infer I> ? I : never,
      Json<operations['listEvents']['responses'][200]>['data'][number]
    >
  >,
  Expect<
    Equal<
      NonNullable<NonNullable<Input<Client['events']['since']>[1]>['query']>,
      Omit<NonNullable<operations['listEvents']['parameters']['query']>, 'cursor' | 'createdFrom' | 'createdTo'>
    >
  >,
  // ...and an event's attempts are exactly what the ledger answers for them (its AttemptView), field by field.
  Expect<Equal<Json<operations['getEvent']['responses'][200]>['attempts'][number], AttemptView>>,

  // balance.get() -> 200 body
  Expect<Equal<Input<Client['balance']['get']>, []>>,
  Expect<Equal<Output<Client['balance']['get']>, Json<operations['getBalance']['responses'][200]>>>,

  // webhookConfig.get() -> 200 body (no secret)
  Expect<Equal<Input<Client['webhookConfig']['get']>, []>>,
  Expect<Equal<Output<Client['webhookConfig']['get']>, Json<operations['getWebhookConfig']['responses'][200]>>>,

  // webhookConfig.update(body) -> 200 body
  Expect<Equal<Input<Client['webhookConfig']['update']>[0], Json<operations['putWebhookConfig']['requestBody']>>>,
  Expect<Equal<Output<Client['webhookConfig']['update']>, Json<operations['putWebhookConfig']['responses'][200]>>>,

  // webhookConfig.test(body) -> 200 body
  Expect<Equal<Input<Client['webhookConfig']['test']>[0], Json<operations['testWebhook']['requestBody']>>>,
  Expect<Equal<Output<Client['webhookConfig']['test']>, Json<operations['testWebhook']['responses'][200]>>>,

  // sandbox: each simulator step takes its path id, its request body (optional, default {}) and { idempotencyKey? },
  // and answers the operation's success body.
  Expect<Equal<Input<Client['sandbox']['simulateTransfer']>[0], operations['simulateTransfer']['parameters']['path']['intentId']>>,
  Expect<Equal<NonNullable<Input<Client['sandbox']['simulateTransfer']>[1]>, Json<operations['simulateTransfer']['requestBody']>>>,
  Expect<Equal<NonNullable<Input<Client['sandbox']['simulateTransfer']>[2]>['idempotencyKey'], string | undefined>>,
  Expect<Equal<Output<Client['sandbox']['simulateTransfer']>, Json<operations['simulateTransfer']['responses'][201]>>>,
  Expect<Equal<Input<Client['sandbox']['approveDeposit']>[0], operations['simulateDepositApproval']['parameters']['path']['intentId']>>,
  Expect<Equal<NonNullable<Input<Client['sandbox']['approveDeposit']>[1]>, Json<operations['simulateDepositApproval']['requestBody']>>>,
  Expect<Equal<Output<Client['sandbox']['approveDeposit']>, Json<operations['simulateDepositApproval']['responses'][200]>>>,
  Expect<Equal<Input<Client['sandbox']['rejectDeposit']>[0], operations['simulateDepositRejection']['parameters']['path']['intentId']>>,
  Expect<Equal<NonNullable<Input<Client['sandbox']['rejectDeposit']>[1]>, Json<operations['simulateDepositRejection']['requestBody']>>>,
  Expect<Equal<Output<Client['sandbox']['rejectDeposit']>, Json<operations['simulateDepositRejection']['responses'][200]>>>,
  // expireDeposit, approveWithdrawal and sendWithdrawal take no body: the API's is the empty object the SDK sends.
  Expect<Equal<Input<Client['sandbox']['expireDeposit']>[0], operations['simulateDepositExpiry']['parameters']['path']['intentId']>>,
  Expect<Equal<Json<operations['simulateDepositExpiry']['requestBody']>, Record<string, never>>>,
  Expect<Equal<NonNullable<Input<Client['sandbox']['expireDeposit']>[1]>['idempotencyKey'], string | undefined>>,
  Expect<Equal<Output<Client['sandbox']['expireDeposit']>, Json<operations['simulateDepositExpiry']['responses'][200]>>>,
  Expect<
    Equal<Input<Client['sandbox']['approveWithdrawal']>[0], operations['simulateWithdrawalApproval']['parameters']['path']['withdrawalId']>
  >,
  Expect<Equal<Json<operations['simulateWithdrawalApproval']['requestBody']>, Record<string, never>>>,
  Expect<Equal<Output<Client['sandbox']['approveWithdrawal']>, Json<operations['simulateWithdrawalApproval']['responses'][200]>>>,
  Expect<
    Equal<Input<Client['sandbox']['rejectWithdrawal']>[0], operations['simulateWithdrawalRejection']['parameters']['path']['withdrawalId']>
  >,
  Expect<
    Equal<NonNullable<Input<Client['sandbox']['rejectWithdrawal']>[1]>, Json<operations['simulateWithdrawalRejection']['requestBody']>>
  >,
  Expect<Equal<Output<Client['sandbox']['rejectWithdrawal']>, Json<operations['simulateWithdrawalRejection']['responses'][200]>>>,
  Expect<Equal<Input<Client['sandbox']['sendWithdrawal']>[0], operations['simulateWithdrawalSent']['parameters']['path']['withdrawalId']>>,
  Expect<Equal<Json<operations['simulateWithdrawalSent']['requestBody']>, Record<string, never>>>,
  Expect<Equal<Output<Client['sandbox']['sendWithdrawal']>, Json<operations['simulateWithdrawalSent']['responses'][200]>>>,
  Expect<
    Equal<Input<Client['sandbox']['returnWithdrawal']>[0], operations['simulateWithdrawalReturn']['parameters']['path']['withdrawalId']>
  >,
  Expect<Equal<NonNullable<Input<Client['sandbox']['returnWithdrawal']>[1]>, Json<operations['simulateWithdrawalReturn']['requestBody']>>>,
  Expect<Equal<Output<Client['sandbox']['returnWithdrawal']>, Json<operations['simulateWithdrawalReturn']['responses'][200]>>>,

  // KasaApiError.code is exactly the contract's closed set of error codes.
  Expect<Equal<KasaApiError['code'], components['schemas']['Problem']['error']>>,
  Expect<Equal<'not_found' extends KasaApiError['code'] ? true : false, true>>,
  Expect<Equal<string extends KasaApiError['code'] ? true : false, false>>,

  // verifyWebhook returns the contract's webhook payloads.
  Expect<Equal<ReturnType<typeof verifyWebhook>, WebhookEvent>>,
  Expect<Equal<WebhookEvent, components['schemas']['IntentWebhookEvent'] | components['schemas']['WithdrawalWebhookEvent']>>,
  // ...each with the generated `livemode` (false for the sandbox's events).
  Expect<Equal<WebhookEvent['livemode'], boolean>>,
  Expect<Equal<WebhookEvent['livemode'], components['schemas']['IntentWebhookEvent']['livemode']>>,
];
