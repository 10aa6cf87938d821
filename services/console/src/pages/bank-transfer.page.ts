import express, { type Router } from 'express';
import type { FieldError, OpsBankTransfer, OpsBankTransferDetail, OpsIntent, ReceivingAccount } from '@kasa/contracts';
import { pathParam } from '@kasa/http';
import { OpsApiError, seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { t as tr, th } from '../i18n/index.js';
import { actionForm, facts, statusBadge, testBadge, type FormContext } from '../views/components.js';
import { formatBooked, formatTime, formatTry, groupIban, maskIban, readLira } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { actionContext, pageContext } from './page-context.js';
import { reasonBadges, suggestionList, unmatchedBecause, type Suggestion } from './transfer-matching.js';
import { returnForm } from './returns.page.js';
import { siteLink, withSites, type SiteDirectory } from './site-names.js';

/** The webhook event a top-up sends the partner. */
const TOP_UP_EVENT = 'intent.topped_up';

const FIELDS = ['receivingAccountId', 'bankTxId', 'amount', 'senderName', 'senderIban', 'description', 'receivedAt'] as const;
type Field = (typeof FIELDS)[number];
type Typed = Record<Field, string>;

/** `2026-01-31T15:00` typed in Türkiye time (UTC+3 all year since 2016) -> an ISO instant, or null. */
export function istanbulToIso(typed: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(typed)) return null;
  const date = new Date(`${typed.length === 16 ? `${typed}:00` : typed}+03:00`);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Now in Türkiye time as a datetime-local value. */
function istanbulNow(): string {
  return new Date(Date.now() + 3 * 3600_000).toISOString().slice(0, 16);
}

function fieldError(errors: FieldError[], name: Field): SafeHtml | '' {
  const mine = errors.filter((e) => e.field.replace(/^\/?(body[./])?/, '') === name);
  return mine.length ? html`<span class="error-line" id="${name}-error">${mine.map((e) => e.message).join('; ')}</span>` : '';
}

function input(errors: FieldError[], name: Field, label: string, attrs: SafeHtml, value: string, hint = ''): SafeHtml {
  const bad = errors.some((e) => e.field.replace(/^\/?(body[./])?/, '') === name);
  return html`<label
    >${label} <input name="${name}" value="${value}" ${attrs} ${bad ? html`aria-invalid="true" aria-describedby="${name}-error"` : ''} />${
      hint ? html`<small>${hint}</small>` : ''
    }${fieldError(errors, name)}</label
  >`;
}

/**
 * The receiving account a transfer arrived on: the only active one preselected; with several active, the operator
 * chooses (the ledger refuses a hand entry naming none then, docs/operations.md).
 */
function accountSelect(errors: FieldError[], accounts: ReceivingAccount[], chosen: string): SafeHtml {
  const active = accounts.filter((a) => a.active);
  const selected = chosen || (active.length === 1 ? (active[0]?.id ?? '') : '');
  return html`<label
    >${tr('review.record.account')}
    <select name="receivingAccountId" required>
      <option value="" disabled ${selected === '' ? html`selected=""` : ''}>${tr('review.record.accountChoose')}</option>
      ${accounts.map(
        (a) =>
          html`<option value="${a.id}" ${a.id === selected ? html`selected=""` : ''}>
            ${a.bankName} · ${maskIban(a.iban)}${a.active ? '' : tr('review.record.inactive')}
          </option>`,
      )}
    </select>
    <small>${tr('review.record.accountHint')}</small>
    ${fieldError(errors, 'receivingAccountId')}</label
  >`;
}

/** The form to record one transfer by hand, with what was typed and each error next to its field. */
function recordForm(ctx: FormContext, typed: Typed, errors: FieldError[], accounts: ReceivingAccount[]): SafeHtml {
  const other = errors.filter((e) => !FIELDS.some((f) => e.field.replace(/^\/?(body[./])?/, '') === f));
  return html`${
      errors.length
        ? html`<section class="error" role="alert">
            <h2>${tr('review.record.checkErrors')}</h2>
            ${
              other.length
                ? html`<ul>
                    ${other.map((e) => html`<li><strong>${e.field}</strong> ${e.message}</li>`)}
                  </ul>`
                : ''
            }
          </section>`
        : ''
    }
    <p class="hint">${tr('review.record.hint')}</p>
    <form method="post" action="/bank-transfers/record" class="grid-form card" data-confirm="${tr('review.record.confirm')}">
      <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="/bank-transfers/record" />
      ${accountSelect(errors, accounts, typed.receivingAccountId)}
      ${input(errors, 'bankTxId', tr('review.transfers.col.bankTxId'), html`type="text" required="" maxlength="128"`, typed.bankTxId)}
      ${input(errors, 'amount', tr('review.record.amount'), html`type="text" required="" inputmode="decimal"`, typed.amount, tr('review.record.amountHint'))}
      ${input(errors, 'senderName', tr('review.record.senderName'), html`type="text" required="" maxlength="140"`, typed.senderName)}
      ${input(
        errors,
        'senderIban',
        tr('review.record.senderIban'),
        html`type="text" required="" maxlength="42" autocomplete="off"`,
        typed.senderIban,
        tr('review.record.senderIbanHint'),
      )}
      ${input(
        errors,
        'description',
        tr('review.transfers.col.description'),
        html`type="text" maxlength="500"`,
        typed.description,
        tr('review.record.descriptionHint'),
      )}
      ${input(errors, 'receivedAt', tr('review.record.receivedAt'), html`type="datetime-local" required="" step="1"`, typed.receivedAt)}
      <div><button type="submit" class="btn primary">${tr('review.record.submit')}</button></div>
    </form>`;
}

/**
 * Money whose deposit was decided before it arrived: an approved deposit can take it as a top-up (the partner hears
 * `intent.topped_up`), a rejected one cannot, and either way it can go back to its sender.
 */
function closedIntentStep(ctx: FormContext, t: OpsBankTransfer, closed: NonNullable<OpsBankTransferDetail['closedIntent']>): SafeHtml {
  const link = html`<a href="/intents/${seg(closed.intentId)}"><code>${closed.referenceNo}</code></a>`;
  if (closed.status === 'REJECTED') {
    return html`<h2>${tr('review.transfer.rejectedTitle')}</h2>
      <p>${th('review.transfer.rejectedText', { deposit: link })}</p>`;
  }
  const amount = formatTry(t.amount);
  return html`<h2>${tr('review.transfer.approvedTitle')}</h2>
    <p>${th('review.transfer.approvedText', { deposit: link, amount, event: html`<code>${TOP_UP_EVENT}</code>` })}</p>
    <div class="actions">
      ${actionForm(ctx, {
        action: `/bank-transfers/${seg(t.bankTransferId)}/top-up`,
        label: tr('review.transfer.topUp', { amount, reference: closed.referenceNo }),
        tone: 'primary',
        confirm: tr('review.transfer.topUpConfirm', { amount, reference: closed.referenceNo }),
        fields: html`<input type="hidden" name="intent" value="${closed.intentId}" />`,
      })}
    </div>`;
}

/** A hand entry against the bank's own line: waiting for it, confirmed by it, or disagreeing with it (nothing credited twice). */
function handEntryState(t: OpsBankTransfer): SafeHtml {
  const difference = t.bankLineDifference;
  if (difference) {
    return html`<strong class="error-line" data-bank-line-difference
        >${tr('review.transfer.lineDiffers', {
          bankAmount: formatTry(difference.bankAmount),
          bookedAt: formatTime(difference.bankBookedAt),
          handAmount: formatTry(difference.handAmount),
          receivedAt: formatTime(difference.handReceivedAt),
        })}</strong
      ><br /><span class="muted">${tr('review.transfer.lineDiffersHint')}</span>`;
  }
  return t.bankConfirmedAt
    ? html`${tr('review.transfer.lineConfirmed', { at: formatTime(t.bankConfirmedAt) })}`
    : html`<span class="muted">${tr('review.transfer.lineAwaited')}</span>`;
}

/** The transfer's deposit by its reference and site (its id when it cannot be read). */
function depositFact(t: OpsBankTransferDetail, deposit: OpsIntent | null, sites: SiteDirectory): SafeHtml | null {
  if (!t.intentId) return null;
  if (!deposit) return html`<a href="/intents/${seg(t.intentId)}"><code>${t.intentId}</code></a>`;
  return html`<a href="/intents/${seg(t.intentId)}"><code>${deposit.referenceNo}</code></a> · ${siteLink(sites, deposit.siteId)}`;
}

/**
 * The transfer's facts, why it matched (or did not), the suggested deposits and its next steps. An open transfer's
 * suggestions come first, above its facts: they are what the operator came for (below them when there are none).
 */
function detail(
  ctx: FormContext,
  t: OpsBankTransferDetail,
  suggestions: readonly Suggestion[],
  deposit: OpsIntent | null,
  sites: SiteDirectory,
): SafeHtml {
  const open = t.status === 'UNMATCHED' || t.status === 'SET_ASIDE';
  const back = html`<div class="actions">${returnForm(ctx, t.bankTransferId, t.amount, t.senderName)}</div>`;
  const listed = open && !t.closedIntent ? suggestionList(ctx, t, suggestions) : '';
  // With none to offer, the card saying so goes below the facts rather than above them.
  const suggested =
    open && !t.closedIntent
      ? html`<section class="card" data-suggested-deposits>
          <h2>${tr('review.transfer.suggestedTitle')}</h2>
          ${listed || html`<p class="muted">${tr('review.transfer.noSuggestion')}</p>`}
        </section>`
      : '';
  return html`${listed ? suggested : ''}
    <section class="card">
      ${facts([
        [tr('review.transfers.col.status'), html`${statusBadge(t.status)}${testBadge(t.livemode)}`],
        [tr('review.col.amount'), html`<strong>${formatTry(t.amount)}</strong>`],
        [tr('review.col.sender'), html`${t.senderName}<br /><code class="iban">${t.senderIban ? groupIban(t.senderIban) : '—'}</code>`],
        [tr('review.transfers.col.description'), t.description],
        [tr('review.transfer.purpose'), t.purpose ? html`<code>${t.purpose}</code>` : null],
        [tr('review.transfers.col.bankTxId'), html`<code>${t.bankTxId}</code>`],
        [tr('review.col.received'), formatBooked(t.receivedAt, t.receivedTimeKnown)],
        [tr('review.transfers.col.deposit'), depositFact(t, deposit, sites)],
        [tr('review.transfer.matchReasons'), reasonBadges(t.matchReasons) || null],
        [tr('review.transfer.unmatchedBecause'), unmatchedBecause(t, suggestions)],
        [tr('review.transfer.setAside'), t.setAsideReason ? `${formatTime(t.setAsideAt)}: ${t.setAsideReason}` : null],
        [tr('review.transfer.handEntry'), t.handEntry ? handEntryState(t) : null],
      ])}
      ${
        open && t.closedIntent
          ? html`${closedIntentStep(ctx, t, t.closedIntent)} ${back}`
          : open
            ? html`<h2>${tr('review.transfer.otherSteps')}</h2>
                <p>
                  ${th('review.transfer.otherStepsText', {
                    list: html`<a href="/bank-transfers?status=${t.status}">${tr('common.nav.transfers')}</a>`,
                  })}
                </p>
                ${back}`
            : ''
      }
      <p class="muted">
        ${th('review.transfer.auditText', {
          link: html`<a href="/audit?entityType=bank_transfer&amp;entityId=${seg(t.bankTransferId)}"
            >${tr('review.transfer.auditLink')}</a
          >`,
        })}
      </p>
    </section>
    ${listed ? '' : suggested}`;
}

/** `/bank-transfers/record` (one transfer typed by hand) and `/bank-transfers/:id` (one transfer, its match and suggestions). */
export function bankTransferDetailRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/bank-transfers/record', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const accounts = (await ctx.ops.call('listReceivingAccounts')).data;
    const empty: Typed = {
      receivingAccountId: '',
      bankTxId: '',
      amount: '',
      senderName: '',
      senderIban: '',
      description: '',
      receivedAt: istanbulNow(),
    };
    ctx.render(tr('review.record.title'), 'transfers', recordForm(ctx, empty, [], accounts));
  });

  router.post('/bank-transfers/record', async (req, res) => {
    const action = actionContext(deps, req, res, '/bank-transfers/record');
    const typed = Object.fromEntries(FIELDS.map((f) => [f, action.field(f)])) as Typed;
    const errors: FieldError[] = [];
    const amount = readLira(typed.amount);
    if ('problem' in amount) errors.push({ field: 'amount', message: amount.problem });
    const receivedAt = istanbulToIso(typed.receivedAt);
    if (!receivedAt) errors.push({ field: 'receivedAt', message: tr('review.record.notATime') });
    let recorded: OpsBankTransfer | null = null;
    if (errors.length === 0 && 'minor' in amount && receivedAt) {
      try {
        recorded = await action.ops.call('recordBankTransfer', {
          body: {
            ...typed,
            receivingAccountId: typed.receivingAccountId || undefined,
            senderIban: typed.senderIban.replace(/\s+/g, ''),
            amount: amount.minor,
            receivedAt,
          },
        });
      } catch (error) {
        if (!(error instanceof OpsApiError) || error.status !== 400) throw error;
        errors.push(...(error.fieldErrors.length ? error.fieldErrors : [{ field: '(form)', message: error.detail }]));
      }
    }
    if (!recorded) {
      const ctx = pageContext(deps, req, res);
      const accounts = (await ctx.ops.call('listReceivingAccounts')).data;
      ctx.render(tr('review.record.title'), 'transfers', recordForm(ctx, typed, errors, accounts), 400);
      return;
    }
    action.done('transfer-recorded', `/bank-transfers/${seg(recorded.bankTransferId)}`);
  });

  router.get('/bank-transfers/:bankTransferId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const [t, sites] = await withSites(
      ctx.ops,
      ctx.ops.call('getBankTransfer', { params: { bankTransferId: pathParam(req, 'bankTransferId') } }),
    );
    const intentId = t.intentId;
    const deposit = intentId ? await ctx.ops.call('opsGetIntent', { params: { intentId } }).catch(() => null) : null;
    ctx.render(tr('review.transfer.title', { bankTxId: t.bankTxId }), 'transfers', detail(ctx, t, t.suggestions ?? [], deposit, sites));
  });

  return router;
}
