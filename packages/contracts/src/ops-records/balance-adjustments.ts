/**
 * Balance adjustments in the ops API: a correction of what the service owes a site with no bank movement behind it
 * (a fee refunded, a settlement corrected), proposed by one admin and posted only when a second, independent admin
 * approves it (docs/operations.md, Balance adjustments). No partner creates or reads one; an applied one is a movement
 * of the site's available balance (`adjustment`), named by its reference. ./index.ts lists the kind.
 */
import { DECISION, LIST, LIST_TIMEOUT, READ, WRITE, type OpsRecordKind } from '../ops-operation-spec.js';
import type { OpsRecordDocsOf } from '../ops-record-docs.js';
import type { OpsRecordCliOf } from '../ops-record-cli.js';
import type { OpsRecordConsoleOf } from '../ops-record-console.js';
import type { OpsRecordDeskOf } from '../ops-record-desk.js';
import { amountBound, opsListProperties, reason, referenceNo, uuid as uuidText } from '../schemas/ops-common.js';
import { amount, nullableString, nullableTimestamp, object, timestamp, uuid } from '../schemas/ops-response-common.js';
import { listResponseSchema } from '../schemas/responses.js';

/** An adjustment's statuses (the ledger's balance-adjustment.states.ts moves between them). */
export const BALANCE_ADJUSTMENT_STATUSES = ['PENDING_REVIEW', 'APPLIED', 'REJECTED'] as const;

/** Whether an adjustment adds to what the service owes the site (`credit`) or takes from it (`debit`). */
export const ADJUSTMENT_DIRECTIONS = ['credit', 'debit'] as const;

const proposeBalanceAdjustmentRequestSchema = {
  $id: 'ProposeBalanceAdjustmentRequest',
  type: 'object',
  additionalProperties: false,
  required: ['direction', 'amount', 'reason'],
  properties: {
    direction: { type: 'string', enum: [...ADJUSTMENT_DIRECTIONS], 'x-message': 'must be credit or debit' },
    amount: {
      ...amountBound,
      pattern: '^[1-9][0-9]{0,14}$',
      'x-message': 'must be a positive whole number of kuruş (minor units) as a string, at most 15 digits',
    },
    reason: { ...reason, description: 'Why the balance is corrected: what the approver checks, and what the audit log keeps.' },
  },
} as const;

const opsListBalanceAdjustmentsQuerySchema = {
  $id: 'OpsListBalanceAdjustmentsQuery',
  type: 'object',
  additionalProperties: false,
  properties: {
    ...opsListProperties(BALANCE_ADJUSTMENT_STATUSES),
    siteId: uuidText,
    referenceNo: { ...referenceNo, description: "One adjustment's reference (`KA...`), as a partner's balance movement names it." },
  },
} as const;

/** The balance adjustments' part of the ops contract; a rejection takes the same body as the other kinds'. */
export const BALANCE_ADJUSTMENT_OPS = {
  requestSchemas: {
    proposeBalanceAdjustment: proposeBalanceAdjustmentRequestSchema,
    opsListBalanceAdjustments: opsListBalanceAdjustmentsQuerySchema,
  },
  responseSchemas: {
    OpsBalanceAdjustment: object(
      'OpsBalanceAdjustment',
      {
        adjustmentId: uuid,
        siteId: uuid,
        referenceNo: { type: 'string', description: "What the site's balance movement names it by." },
        direction: { type: 'string', enum: [...ADJUSTMENT_DIRECTIONS] },
        amount,
        currency: { type: 'string', enum: ['TRY'] },
        reason: { type: 'string' },
        status: { type: 'string', enum: [...BALANCE_ADJUSTMENT_STATUSES] },
        proposedByOperatorId: { type: 'string' },
        proposedByEmail: nullableString,
        decidedByOperatorId: { ...nullableString, description: 'Who applied or rejected it; null while in review.' },
        decidedByEmail: nullableString,
        appliedAt: nullableTimestamp,
        rejectedAt: nullableTimestamp,
        rejectedReason: nullableString,
        createdAt: timestamp,
      },
      "A correction of what the service owes a site, with no bank movement behind it; posted to the site's journal once applied.",
    ),
    OpsBalanceAdjustmentList: listResponseSchema('OpsBalanceAdjustmentList', { $id: 'OpsBalanceAdjustment' }),
  },
  operations: {
    proposeBalanceAdjustment: {
      method: 'POST',
      path: '/sites/:siteId/balance-adjustments',
      role: 'ADMIN',
      tag: 'Balances',
      summary: "Propose a correction of a site's available balance",
      description:
        'A balance adjustment PENDING_REVIEW: nothing is posted until a second admin approves it. `credit` adds to what the ' +
        'service owes the site, `debit` takes from it. Proposed by a person with an operator account (the bootstrap token, ' +
        'which is configuration, gets 409 `second_approver_required`).',
      status: '201',
      response: 'OpsBalanceAdjustment',
      responseDescription: 'Proposed',
      body: {
        schema: 'proposeBalanceAdjustment',
        example: { direction: 'credit', amount: '15000', reason: 'Refund of the November fee charged twice (ticket 4711).' },
      },
      errors: [...WRITE, '403', '404', '409'],
    },
    opsListBalanceAdjustments: {
      method: 'GET',
      path: '/balance-adjustments',
      role: 'REVIEWER',
      tag: 'Balances',
      summary: 'Balance adjustments, newest first',
      description:
        'Filtered by status (PENDING_REVIEW, APPLIED, REJECTED), site and reference, in pages joined by `nextCursor`; `order=oldest` for a ' +
        'queue. ' +
        LIST_TIMEOUT,
      query: 'opsListBalanceAdjustments',
      response: 'OpsBalanceAdjustmentList',
      errors: LIST,
    },
    opsGetBalanceAdjustment: {
      method: 'GET',
      path: '/balance-adjustments/:adjustmentId',
      role: 'REVIEWER',
      tag: 'Balances',
      summary: 'Read a balance adjustment',
      description: 'With who proposed it and who decided it.',
      response: 'OpsBalanceAdjustment',
      errors: [...READ, '404'],
    },
    approveBalanceAdjustment: {
      method: 'POST',
      path: '/balance-adjustments/:adjustmentId/approve',
      role: 'ADMIN',
      tag: 'Balances',
      summary: 'Apply a balance adjustment',
      description:
        "PENDING_REVIEW -> APPLIED, posted to the site's journal (credit: adjustments -> site_available; debit: site_available " +
        '-> adjustments). Always four-eyes: the admin who proposed it, the bootstrap token, or an admin tied to the proposer (the ' +
        'one who created or last changed the other account) gets 409 `second_approver_required`; a debit past the available ' +
        'balance gets 409 `insufficient_balance`; above STEP_UP_ABOVE_KURUS a fresh second-factor code is needed (403 ' +
        '`step_up_required`).',
      response: 'OpsBalanceAdjustment',
      responseDescription: 'Applied',
      errors: [...DECISION, '403'],
    },
    rejectBalanceAdjustment: {
      method: 'POST',
      path: '/balance-adjustments/:adjustmentId/reject',
      role: 'ADMIN',
      tag: 'Balances',
      summary: 'Reject a balance adjustment',
      description: 'PENDING_REVIEW -> REJECTED; nothing is posted. The proposer may withdraw their own proposal this way.',
      response: 'OpsBalanceAdjustment',
      responseDescription: 'Rejected',
      body: { schema: 'reject', example: { reason: 'The fee was charged once; the second line is its reversal.' } },
      errors: [...DECISION, '403'],
    },
  },
  // `kasa adjustments` (docs/cli.md, Balance adjustments), drawn by the CLI from this part.
  cli: {
    command: 'adjustments',
    description: "corrections of a site's balance: one admin proposes, another applies or rejects",
    list: {
      operation: 'opsListBalanceAdjustments',
      description: 'list adjustments (to decide: --status PENDING_REVIEW --order oldest)',
      columns: [
        { header: 'ADJUSTMENT', field: 'adjustmentId' },
        { header: 'REFERENCE', field: 'referenceNo' },
        { header: 'SITE', field: 'siteId' },
        { header: 'STATUS', field: 'status' },
        { header: 'DIRECTION', field: 'direction' },
        { header: 'AMOUNT (TRY)', field: 'amount', show: 'lira' },
        { header: 'REASON', field: 'reason', show: { cut: 40 } },
        { header: 'PROPOSED BY', person: ['proposedByEmail', 'proposedByOperatorId'] },
        { header: 'CREATED', field: 'createdAt', show: 'time' },
      ],
    },
    show: { operation: 'opsGetBalanceAdjustment', description: 'show an adjustment with who proposed and who decided it' },
    mode: { site: 'siteId' },
    create: {
      verb: 'propose',
      operation: 'proposeBalanceAdjustment',
      description: "propose a correction of a site's available balance (admin); nothing is posted until a second admin applies it",
      params: { siteId: { flag: 'site', help: 'the site whose balance is corrected' } },
      options: {
        direction: { help: 'credit adds to what the service owes the site, debit takes from it' },
        amount: { help: 'the amount in lira (TRY), e.g. 150 or 1.500,00', lira: true },
        reason: { help: 'why: what the second admin checks and the audit log keeps' },
      },
    },
    steps: [
      {
        verb: 'apply',
        aliases: ['approve'],
        operation: 'approveBalanceAdjustment',
        description: "apply it to the site's balance (admin; never the admin who proposed it); a debit needs the balance available",
      },
      {
        verb: 'reject',
        operation: 'rejectBalanceAdjustment',
        description: 'reject it (admin; the proposer may withdraw their own); nothing is posted',
        options: { reason: { help: 'why: the proposer and the audit log read it' } },
      },
    ],
    result: {
      record: 'Adjustment {adjustmentId} ({referenceNo})',
      what: {
        by: 'direction',
        is: { credit: 'credit of {amount:lira} TRY to site {siteId}', debit: 'debit of {amount:lira} TRY from site {siteId}' },
      },
      review: {
        PENDING_REVIEW:
          'Proposed by {proposedByEmail|proposedByOperatorId}; a second admin applies it with {next:apply}, or rejects it with {next:reject}',
        APPLIED: 'Proposed by {proposedByEmail|proposedByOperatorId}, applied by {decidedByEmail|decidedByOperatorId}.',
        REJECTED: 'Proposed by {proposedByEmail|proposedByOperatorId}, rejected by {decidedByEmail|decidedByOperatorId}: {rejectedReason}',
      },
    },
  },
  // Its console pages (docs/console.md, Balance adjustments), drawn by the console from this part.
  console: {
    path: '/balance-adjustments',
    section: { name: 'adjustments', after: 'balances', words: { en: 'Adjustments', tr: 'Bakiye düzeltmeleri' } },
    audit: {
      entityType: 'balance_adjustment',
      words: { en: 'Balance adjustment', tr: 'Bakiye düzeltmesi' },
      actions: {
        'BALANCE_ADJUSTMENT.PROPOSED': { en: 'Balance adjustment proposed', tr: 'Bakiye düzeltmesi önerildi' },
        'BALANCE_ADJUSTMENT.APPLIED': { en: 'Balance adjustment applied', tr: 'Bakiye düzeltmesi uygulandı' },
        'BALANCE_ADJUSTMENT.REJECTED': { en: 'Balance adjustment rejected', tr: 'Bakiye düzeltmesi reddedildi' },
      },
    },
    list: 'opsListBalanceAdjustments',
    read: 'opsGetBalanceAdjustment',
    id: 'adjustmentId',
    reference: 'referenceNo',
    actor: 'ADMIN',
    tabs: [
      { status: 'PENDING_REVIEW', label: 'tab.review' },
      { status: 'APPLIED', label: 'tab.applied' },
      { status: 'REJECTED', label: 'tab.rejected' },
    ],
    columns: [
      { label: 'created', field: 'createdAt', show: 'time' },
      { label: 'site', field: 'siteId', show: 'site' },
      { label: 'reference', field: 'referenceNo', show: 'code', link: true },
      { label: 'direction', field: 'direction', show: 'choice', choice: 'direction' },
      { label: 'amount', field: 'amount', show: 'amount' },
      { label: 'proposedBy', field: 'proposedByOperatorId', show: 'person', email: 'proposedByEmail' },
      { label: 'status', field: 'status', show: 'status' },
    ],
    facts: [
      { label: 'status', field: 'status', show: 'status' },
      { label: 'reference', field: 'referenceNo', show: 'code' },
      { label: 'id', field: 'adjustmentId', show: 'code' },
      { label: 'site', field: 'siteId', show: 'site' },
      { label: 'direction', field: 'direction', show: 'choice', choice: 'effect' },
      { label: 'amount', field: 'amount', show: 'amount' },
      { label: 'reason', field: 'reason', show: 'text' },
      { label: 'proposedBy', field: 'proposedByOperatorId', show: 'person', email: 'proposedByEmail', at: 'createdAt' },
      { label: 'decidedBy', field: 'decidedByOperatorId', show: 'person', email: 'decidedByEmail' },
      { label: 'appliedAt', field: 'appliedAt', show: 'time' },
      { label: 'rejectedAt', field: 'rejectedAt', show: 'time', note: 'rejectedReason' },
      { label: 'available', field: 'siteId', show: 'site-balance' },
    ],
    create: {
      operation: 'proposeBalanceAdjustment',
      site: { label: 'site', none: 'noSite' },
      inputs: [
        { name: 'direction', input: 'choice', choice: 'option', label: 'direction', invalid: 'chooseDirection' },
        { name: 'amount', input: 'lira', label: 'amountInLira', hint: 'amountHint' },
        { name: 'reason', input: 'text', label: 'reason', hint: 'reasonHint' },
      ],
      heading: 'new',
      hint: 'newHint',
      button: 'propose',
      confirm: 'proposeConfirm',
      invalid: 'invalid',
      notice: 'adjustment-proposed',
      sample: { direction: 'credit', amount: '15000', reason: 'Çift kesilen komisyonun iadesi' },
    },
    steps: [
      {
        path: 'approve',
        operation: 'approveBalanceAdjustment',
        tone: 'primary',
        label: 'apply',
        from: ['PENDING_REVIEW'],
        confirm: {
          words: 'applyConfirm',
          params: {
            direction: { field: 'direction', show: 'choice', choice: 'direction' },
            amount: { field: 'amount', show: 'amount' },
            site: { field: 'siteId', show: 'site' },
          },
        },
        // Always four-eyes: the ledger refuses the proposer (409 `second_approver_required`), so no button is offered.
        notBy: { field: 'proposedByOperatorId', hint: 'ownProposal' },
        notice: 'adjustment-applied',
      },
      {
        path: 'reject',
        operation: 'rejectBalanceAdjustment',
        tone: 'danger',
        label: 'reject',
        from: ['PENDING_REVIEW'],
        confirm: {
          words: 'rejectConfirm',
          params: { amount: { field: 'amount', show: 'amount' }, site: { field: 'siteId', show: 'site' } },
        },
        reason: 'rejectReason',
        notice: 'adjustment-rejected',
      },
    ],
    notices: {
      'adjustment-proposed': {
        en: 'Adjustment proposed; nothing is posted until a second admin applies it.',
        tr: 'Düzeltme önerildi; ikinci bir yönetici uygulayana dek hiçbir kayıt yapılmaz.',
      },
      'adjustment-applied': {
        en: "Adjustment applied: posted to the site's balance and audited.",
        tr: 'Düzeltme uygulandı: sitenin bakiyesine işlendi ve denetim kaydına yazıldı.',
      },
      'adjustment-rejected': { en: 'Adjustment rejected; nothing was posted.', tr: 'Düzeltme reddedildi; hiçbir kayıt yapılmadı.' },
    },
    choices: {
      direction: { credit: { en: 'credit', tr: 'alacak' }, debit: { en: 'debit', tr: 'borç' } },
      effect: {
        credit: { en: 'Credit: adds to what the service owes the site', tr: 'Alacak: hizmetin siteye borcuna eklenir' },
        debit: { en: "Debit: takes from the site's available balance", tr: 'Borç: sitenin kullanılabilir bakiyesinden düşülür' },
      },
      option: {
        credit: { en: 'Credit: add to the balance', tr: 'Alacak: bakiyeye ekle' },
        debit: { en: 'Debit: take from the balance', tr: 'Borç: bakiyeden düş' },
      },
    },
    words: {
      title: { en: 'Balance adjustments', tr: 'Bakiye düzeltmeleri' },
      recordTitle: { en: 'Balance adjustment {reference}', tr: 'Bakiye düzeltmesi {reference}' },
      hint: {
        en:
          'A correction of what the service owes a site with no bank movement behind it (a fee refunded, a settlement ' +
          "corrected). One admin proposes it; a second, independent admin applies it to the site's balance or rejects it.",
        tr:
          'Arkasında banka hareketi olmadan hizmetin bir siteye borcunun düzeltilmesi (geri verilen bir komisyon, düzeltilen ' +
          'bir hesaplaşma). Bir yönetici önerir; ikinci, bağımsız bir yönetici sitenin bakiyesine uygular ya da reddeder.',
      },
      empty: { en: 'No balance adjustments in this state.', tr: 'Bu durumda bakiye düzeltmesi yok.' },
      none: { en: 'None: this adjustment is {status}.', tr: 'Yok: bu düzeltmenin durumu {status}.' },
      waiting: {
        en: 'Waiting for a second admin to apply or reject it.',
        tr: 'İkinci bir yöneticinin uygulamasını ya da reddetmesini bekliyor.',
      },
      actorOnly: {
        en: 'Proposing, applying and rejecting an adjustment need the admin role.',
        tr: 'Düzeltme önermek, uygulamak ve reddetmek yönetici rolü gerektirir.',
      },
      stepsHint: {
        en:
          "Always four-eyes: the admin who proposed it, an admin tied to them (one created or last changed the other's " +
          'account) and the bootstrap token cannot apply it.',
        tr:
          'Her zaman dört göz: öneren yönetici, ona bağlı bir yönetici (biri diğerinin hesabını oluşturmuş ya da en son ' +
          'değiştirmiş) ve kurulum anahtarı bunu uygulayamaz.',
      },
      'tab.review': { en: 'To review', tr: 'İncelenecek' },
      'tab.applied': { en: 'Applied', tr: 'Uygulandı' },
      'tab.rejected': { en: 'Rejected', tr: 'Reddedildi' },
      created: { en: 'Created', tr: 'Oluşturulma' },
      site: { en: 'Site', tr: 'Site' },
      reference: { en: 'Reference', tr: 'Referans' },
      id: { en: 'Adjustment id', tr: 'Düzeltme no' },
      direction: { en: 'Direction', tr: 'Yön' },
      amount: { en: 'Amount', tr: 'Tutar' },
      proposedBy: { en: 'Proposed by', tr: 'Öneren' },
      status: { en: 'Status', tr: 'Durum' },
      reason: { en: 'Reason', tr: 'Gerekçe' },
      decidedBy: { en: 'Decided by', tr: 'Karar veren' },
      appliedAt: { en: 'Applied at', tr: 'Uygulanma zamanı' },
      rejectedAt: { en: 'Rejected at', tr: 'Red zamanı' },
      available: { en: "Site's available balance now", tr: 'Sitenin şu anki kullanılabilir bakiyesi' },
      new: { en: 'Propose an adjustment', tr: 'Düzeltme öner' },
      newHint: {
        en: 'Nothing is posted until a second admin applies it. The reason is what they check and what the audit log keeps.',
        tr:
          'İkinci bir yönetici uygulayana dek hiçbir kayıt yapılmaz. Gerekçe, onaylayanın kontrol ettiği ve denetim kaydında ' +
          'kalan bilgidir.',
      },
      amountInLira: { en: 'Amount in lira (TRY)', tr: 'Lira cinsinden tutar (TRY)' },
      amountHint: { en: 'such as 1500 or 1.500,00', tr: 'örneğin 1500 ya da 1.500,00' },
      reasonHint: { en: 'What happened, with its ticket number', tr: 'Ne olduğu, talep numarasıyla' },
      propose: { en: 'Propose', tr: 'Öner' },
      proposeConfirm: {
        en: 'Propose this adjustment? Nothing is posted until a second admin applies it.',
        tr: 'Bu düzeltme önerilsin mi? İkinci bir yönetici uygulayana dek hiçbir kayıt yapılmaz.',
      },
      noSite: { en: 'No live site to adjust yet.', tr: 'Henüz düzeltilecek canlı site yok.' },
      invalid: {
        en: 'Nothing was proposed: correct the fields below and try again.',
        tr: 'Hiçbir şey önerilmedi: aşağıdaki alanları düzeltip yeniden deneyin.',
      },
      chooseDirection: { en: 'must be credit or debit', tr: 'alacak ya da borç olmalı' },
      ownProposal: {
        en: 'You proposed this adjustment: a different admin must apply it. You may still reject it to withdraw it.',
        tr: 'Bu düzeltmeyi siz önerdiniz: başka bir yönetici uygulamalı. Önerinizi geri çekmek için yine de reddedebilirsiniz.',
      },
      apply: { en: 'Apply', tr: 'Uygula' },
      applyConfirm: {
        en: "Apply a {direction} of {amount} to {site}? It is posted to the site's balance at once.",
        tr: '{site} sitesine {amount} {direction} uygulansın mı? Sitenin bakiyesine hemen işlenir.',
      },
      reject: { en: 'Reject', tr: 'Reddet' },
      rejectConfirm: {
        en: 'Reject the adjustment of {amount} for {site}? Nothing is posted.',
        tr: '{site} için {amount} tutarındaki düzeltme reddedilsin mi? Hiçbir kayıt yapılmaz.',
      },
      rejectReason: { en: 'Reason for rejecting', tr: 'Red gerekçesi' },
    },
  },
  // Its queue on the desk (docs/operations.md, Dashboard): `kasa dashboard`'s line and the console's card.
  desk: {
    queue: 'adjustmentsToApply',
    status: 'PENDING_REVIEW',
    description: "Live sites' balance adjustments waiting for a second admin to apply or reject them (oldest: the earliest proposed).",
    words: {
      title: { en: 'Adjustments to apply', tr: 'Uygulanacak düzeltmeler' },
      what: { en: 'balance corrections waiting for a second admin', tr: 'ikinci bir yöneticiyi bekleyen bakiye düzeltmeleri' },
    },
    cli: 'Adjustments to apply',
  },
  // Its words in the docs (docs/architecture.md's ledger folders, docs/console.md's pages, docs/operations.md's audit
  // actions, dashboard queues and its section), written there by node scripts/docs-tables.mjs.
  docs: {
    folder:
      'corrections of what the service owes a site with no bank movement behind them: proposed by one admin, ' +
      "applied (posted to the site's journal) or rejected by a second, independent one " +
      '(`balance-adjustment.states.ts`, `balance-adjustment.repository.ts`, ' +
      '`review-balance-adjustment.use-case.ts`, `balance-adjustment.views.ts`)',
    consolePage:
      '**Balance adjustments** by tab (To review, Applied, Rejected; the queue oldest first): corrections of ' +
      'what the service owes a site with no bank movement behind them (docs/operations.md, Balance adjustments). ' +
      'An admin proposes one with the form under the list (a live site, credit or debit, an amount in lira, a ' +
      "reason); `/balance-adjustments/:id` shows it with the site's available balance, and another admin applies " +
      'or rejects it. The proposer sees no Apply button and may only withdraw it (reject); a refused apply (the ' +
      'proposer, an admin tied to them, the bootstrap token) or a debit past the balance is shown in words. A ' +
      'reviewer reads them without any form.',
    operations: {
      title: 'Balance adjustments',
      body: [
        'Sometimes what the service owes a site must change with no bank movement behind it: a fee charged twice ' +
          'is refunded, a settlement agreed with the partner is corrected, money credited to the wrong site is moved ' +
          '(a debit on one site and a credit on the other). That is a **balance adjustment** (`balance_adjustments`, ' +
          "the ledger's `balance-adjustments/`):",
        [
          "**Proposed** by an admin with a person's account (`POST /ops/v1/sites/:siteId/balance-adjustments`, " +
            "`{direction: credit|debit, amount, reason}`; the console's Balance adjustments page, `kasa adjustments " +
            'propose`): PENDING_REVIEW, with a reference (`KA...`). Nothing is posted yet. A proposal identical to one ' +
            'still waiting (same site, direction, amount and reason: a form sent twice) is refused 409 ' +
            "`duplicate_adjustment`, naming the waiting one; proposals on one site take the site's row lock, so two " +
            'sent at once cannot both pass. The bootstrap token, which is configuration and no person, cannot propose ' +
            'one (409 `second_approver_required`); a scoped admin proposes only on its sites (404).',
          '**Applied** by a second, independent admin (`POST /ops/v1/balance-adjustments/:adjustmentId/approve`): ' +
            'always four-eyes, whatever the amount, since no bank line backs it. Decided on the locked record: the ' +
            'proposer, the bootstrap token, or an admin tied to the proposer (the one who created or last changed the ' +
            "other's account) is refused 409 `second_approver_required` and audited `FOUR_EYES.REFUSED`; above " +
            '`STEP_UP_ABOVE_KURUS` a fresh second-factor code is needed. Applying posts it in the same transaction ' +
            '(the table above): a credit adds to `site_available`, a debit takes from it and is refused 409 ' +
            "`insufficient_balance` past the available balance, under the balance row's lock like a withdrawal's " +
            'approval. The database refuses an applied adjustment whose decider is its proposer.',
          '**Rejected** by an admin (`.../reject`, with a reason; the proposer may withdraw their own this way): nothing is posted.',
        ],
        'The partner sees an applied adjustment as a movement of its `available` balance of type `adjustment`, ' +
          'named by its reference, in its balance transactions and signed statements ' +
          '([api.md](api.md#balance-transactions)); no webhook is sent. The journal check holds the `adjustments` ' +
          'account to the applied adjustments of each site (`record_mismatch`, `account: adjustments`).',
      ],
      audit: {
        written:
          'balance adjustments (Balance adjustments below): the reference, direction and amount, the reason when ' +
          'proposed or rejected, the journal transaction when applied',
      },
      desk: { waits: 'balance adjustments {status} of live sites, for a second admin', since: 'when proposed' },
    },
  },
} as const satisfies OpsRecordKind;

// The compiler holds the commands to this kind's own operations, bodies and view.
BALANCE_ADJUSTMENT_OPS.cli satisfies OpsRecordCliOf<typeof BALANCE_ADJUSTMENT_OPS>;
// And the console pages to the same, with every word in both languages.
BALANCE_ADJUSTMENT_OPS.console satisfies OpsRecordConsoleOf<typeof BALANCE_ADJUSTMENT_OPS>;
// And its queue to its statuses and its console list's first tab.
BALANCE_ADJUSTMENT_OPS.desk satisfies OpsRecordDeskOf<typeof BALANCE_ADJUSTMENT_OPS>;
// And its words in the docs to its console pages and its queue.
BALANCE_ADJUSTMENT_OPS.docs satisfies OpsRecordDocsOf<typeof BALANCE_ADJUSTMENT_OPS>;
