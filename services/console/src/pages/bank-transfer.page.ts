import express, { type Router } from 'express';
import type { FieldError, OpsBankTransfer, OpsBankTransferDetail, ReceivingAccount } from '@kasa/contracts';
import { pathParam } from '@kasa/http';
import { OpsApiError, seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { actionForm, facts, statusBadge, testBadge, type FormContext } from '../views/components.js';
import { formatBooked, formatTime, formatTry, groupIban, maskIban, readLira } from '../views/format.js';
import { html, type SafeHtml } from '../views/html.js';
import { actionContext, pageContext } from './page-context.js';
import { reasonBadges, suggestionList } from './transfer-matching.js';
import { returnForm } from './returns.page.js';

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
    >Receiving account
    <select name="receivingAccountId" required>
      <option value="" disabled ${selected === '' ? html`selected` : ''}>Choose the account the money reached</option>
      ${accounts.map(
        (a) =>
          html`<option value="${a.id}" ${a.id === selected ? html`selected` : ''}>
            ${a.bankName} · ${maskIban(a.iban)}${a.active ? '' : ' (inactive)'}
          </option>`,
      )}
    </select>
    <small>The account the money reached: the bank's own line for this transfer later confirms it there, never credits it again</small>
    ${fieldError(errors, 'receivingAccountId')}</label
  >`;
}

/** The form to record one transfer by hand, with what was typed and each error next to its field. */
function recordForm(ctx: FormContext, typed: Typed, errors: FieldError[], accounts: ReceivingAccount[]): SafeHtml {
  const other = errors.filter((e) => !FIELDS.some((f) => e.field.replace(/^\/?(body[./])?/, '') === f));
  return html`${
      errors.length
        ? html`<section class="error" role="alert">
            <h2>Check what you entered; nothing was recorded.</h2>
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
    <p class="hint">
      For a transfer the bank's statement or connector did not bring in: type it as the bank shows it. It is matched like any other by the
      reference in its description; the same bank tx id recorded twice on an account is one transfer, and the bank's own line arriving later
      confirms it (or shows the difference) instead of crediting it again.
    </p>
    <form method="post" action="/bank-transfers/record" class="grid-form card" data-confirm="Record this transfer? It is matched at once.">
      <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="/bank-transfers/record" />
      ${accountSelect(errors, accounts, typed.receivingAccountId)}
      ${input(errors, 'bankTxId', 'Bank tx id', html`type="text" required maxlength="128"`, typed.bankTxId)}
      ${input(errors, 'amount', 'Amount in lira (TRY)', html`type="text" required inputmode="decimal"`, typed.amount, 'Such as 1500 or 1.500,50')}
      ${input(errors, 'senderName', 'Sender name', html`type="text" required maxlength="140"`, typed.senderName)}
      ${input(errors, 'senderIban', 'Sender IBAN', html`type="text" required maxlength="42" autocomplete="off"`, typed.senderIban, 'TR and 24 digits; spaces are fine')}
      ${input(errors, 'description', 'Description', html`type="text" maxlength="500"`, typed.description, 'As the bank shows it, with the reference (KD...)')}
      ${input(errors, 'receivedAt', 'Received at (Türkiye time)', html`type="datetime-local" required step="1"`, typed.receivedAt)}
      <div><button type="submit" class="btn primary">Record transfer</button></div>
    </form>`;
}

/**
 * Why a transfer waits, in an operator's words. A description whose reference is one character off holds no
 * valid reference (its check character fails), so the ledger says `no_reference`; with a near suggestion
 * that would read wrong, so the suggestion is named instead.
 */
function unmatchedBecause(t: OpsBankTransfer, suggestions: Parameters<typeof suggestionList>[2]): string | null {
  if (!t.unmatchedReason) return null;
  const near = suggestions.some((suggestion) => suggestion.reasons.includes('reference_near'));
  if (t.unmatchedReason === 'no_reference' && near) return 'its reference is one character off: see the suggested deposit';
  if (t.unmatchedReason === 'intent_closed') return 'its deposit was already decided when the money arrived';
  return t.unmatchedReason.replace(/_/g, ' ').toLowerCase();
}

/**
 * Money whose deposit was decided before it arrived: an approved deposit can take it as a top-up (the partner hears
 * `intent.topped_up`), a rejected one cannot, and either way it can go back to its sender.
 */
function closedIntentStep(ctx: FormContext, t: OpsBankTransfer, closed: NonNullable<OpsBankTransferDetail['closedIntent']>): SafeHtml {
  const link = html`<a href="/intents/${seg(closed.intentId)}"><code>${closed.referenceNo}</code></a>`;
  if (closed.status === 'REJECTED') {
    return html`<h2>Its deposit was rejected</h2>
      <p>The description names deposit ${link}, which was rejected before this money arrived. Send the money back to its sender below.</p>`;
  }
  return html`<h2>Its deposit was approved already</h2>
    <p>
      The description names deposit ${link}, approved before this money arrived (the user paid again, or paid the rest late). Credit it to
      that deposit as a top-up: the site's balance grows by ${formatTry(t.amount)} and the partner receives <code>intent.topped_up</code>.
      Or send it back to its sender below.
    </p>
    <div class="actions">
      ${actionForm(ctx, {
        action: `/bank-transfers/${seg(t.bankTransferId)}/top-up`,
        label: `Credit ${formatTry(t.amount)} to ${closed.referenceNo} as a top-up`,
        tone: 'primary',
        confirm: `Credit this transfer of ${formatTry(t.amount)} to the approved deposit ${closed.referenceNo}? The partner is told by webhook.`,
        fields: html`<input type="hidden" name="intent" value="${closed.intentId}" />`,
      })}
    </div>`;
}

/** A hand entry against the bank's own line: waiting for it, confirmed by it, or disagreeing with it (nothing credited twice). */
function handEntryState(t: OpsBankTransfer): SafeHtml {
  const difference = t.bankLineDifference;
  if (difference) {
    return html`<strong class="error-line" data-bank-line-difference
        >The bank's line differs: ${formatTry(difference.bankAmount)} booked ${formatTime(difference.bankBookedAt)}, recorded here
        ${formatTry(difference.handAmount)} at ${formatTime(difference.handReceivedAt)}.</strong
      ><br /><span class="muted">Nothing was credited a second time; check with the bank which is right.</span>`;
  }
  return t.bankConfirmedAt
    ? html`confirmed by the bank's own line ${formatTime(t.bankConfirmedAt)}`
    : html`<span class="muted">the bank's own line has not arrived yet</span>`;
}

/** The transfer's facts, why it matched (or did not), the suggested deposits and its next steps. */
function detail(ctx: FormContext, t: OpsBankTransferDetail, suggestions: Parameters<typeof suggestionList>[2]): SafeHtml {
  const open = t.status === 'UNMATCHED' || t.status === 'SET_ASIDE';
  return html`<section class="card">
    ${facts([
      ['Status', html`${statusBadge(t.status)}${testBadge(t.livemode)}`],
      ['Amount', html`<strong>${formatTry(t.amount)}</strong>`],
      ['Sender', html`${t.senderName}<br /><code class="iban">${t.senderIban ? groupIban(t.senderIban) : '—'}</code>`],
      ['Description', t.description],
      ['Bank tx id', html`<code>${t.bankTxId}</code>`],
      ['Received', formatBooked(t.receivedAt, t.receivedTimeKnown)],
      ['Deposit', t.intentId ? html`<a href="/intents/${seg(t.intentId)}"><code>${t.intentId}</code></a>` : null],
      ['Match reasons', reasonBadges(t.matchReasons) || null],
      ['Unmatched because', unmatchedBecause(t, suggestions)],
      ['Set aside', t.setAsideReason ? `${formatTime(t.setAsideAt)}: ${t.setAsideReason}` : null],
      ['Recorded by hand', t.handEntry ? handEntryState(t) : null],
    ])}
    ${
      open && t.closedIntent
        ? html`${closedIntentStep(ctx, t, t.closedIntent)}
            <div class="actions">${returnForm(ctx, t.bankTransferId, t.amount, t.senderName)}</div>`
        : open
          ? html`<h2>Suggested deposits</h2>
              ${suggestionList(ctx, t, suggestions) || html`<p class="muted">No deposit's reference is near this description.</p>`}
              <h2>Other steps</h2>
              <p>
                Assign it by a reference you found, or set it aside, on the <a href="/bank-transfers?status=${t.status}">Transfers</a> list.
              </p>
              <div class="actions">${returnForm(ctx, t.bankTransferId, t.amount, t.senderName)}</div>`
          : ''
    }
    <p class="muted">Its steps are in the <a href="/audit?entityType=bank_transfer&amp;entityId=${seg(t.bankTransferId)}">audit log</a>.</p>
  </section>`;
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
    ctx.render('Record a transfer', 'transfers', recordForm(ctx, empty, [], accounts));
  });

  router.post('/bank-transfers/record', async (req, res) => {
    const action = actionContext(deps, req, res, '/bank-transfers/record');
    const typed = Object.fromEntries(FIELDS.map((f) => [f, action.field(f)])) as Typed;
    const errors: FieldError[] = [];
    const amount = readLira(typed.amount);
    if ('problem' in amount) errors.push({ field: 'amount', message: amount.problem });
    const receivedAt = istanbulToIso(typed.receivedAt);
    if (!receivedAt) errors.push({ field: 'receivedAt', message: 'must be a date and time' });
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
      ctx.render('Record a transfer', 'transfers', recordForm(ctx, typed, errors, accounts), 400);
      return;
    }
    action.done('transfer-recorded', `/bank-transfers/${seg(recorded.bankTransferId)}`);
  });

  router.get('/bank-transfers/:bankTransferId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const t = await ctx.ops.call('getBankTransfer', { params: { bankTransferId: pathParam(req, 'bankTransferId') } });
    ctx.render(`Transfer ${t.bankTxId}`, 'transfers', detail(ctx, t, t.suggestions ?? []));
  });

  return router;
}
