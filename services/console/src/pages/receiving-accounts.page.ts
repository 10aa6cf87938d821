import express, { type Router } from 'express';
import { pathParam, AppError } from '@kasa/http';
import type { ReceivingAccount } from '@kasa/contracts';
import { seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { t, th } from '../i18n/index.js';
import { html, safeUrl, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { actionContext, pageContext, type PageContext } from './page-context.js';

/** The account number and branch code fields, filled with `account`'s (the same on the new-account form, empty). */
function numberFields(account?: ReceivingAccount): SafeHtml {
  return html`<label
      >${t('money.accounts.number')}
      <input
        type="text"
        name="accountNumber"
        inputmode="numeric"
        pattern="[0-9]{5,20}"
        maxlength="20"
        value="${account?.accountNumber ?? ''}"
      /><small>${t('money.accounts.number.hint')}</small></label
    >
    <label
      >${t('money.accounts.branchCode')}
      <input
        type="text"
        name="branchCode"
        inputmode="numeric"
        pattern="[0-9]{1,5}"
        maxlength="5"
        value="${account?.branchCode ?? ''}"
      /><small>${t('money.accounts.branchCode.hint')}</small></label
    >`;
}

function createAccountForm(ctx: PageContext): SafeHtml {
  return html`<form method="post" action="/receiving-accounts" class="card grid-form" data-confirm="${t('money.accounts.create.confirm')}">
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
    <label
      >${t('money.accounts.bank')}
      <input type="text" name="bankName" required minlength="2" maxlength="140" placeholder="${t('money.accounts.bank.example')}"
    /></label>
    <label
      >${t('money.accounts.holder')}
      <input type="text" name="holderName" required minlength="2" maxlength="140" placeholder="${t('money.accounts.holder.example')}"
    /></label>
    <label
      >IBAN <input type="text" name="iban" required minlength="15" maxlength="42" placeholder="${t('money.accounts.iban.example')}"
    /></label>
    ${numberFields()}
    <div><button type="submit" class="btn primary">${t('money.accounts.create.button')}</button></div>
  </form>`;
}

function editAccountForm(ctx: PageContext, account: ReceivingAccount): SafeHtml {
  return html`<form
    method="post"
    action="${safeUrl(`/receiving-accounts/${seg(account.id)}`)}"
    class="card grid-form"
    data-confirm="${t('money.accounts.edit.confirm')}"
  >
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
    <label
      >${t('money.accounts.bank')} <input type="text" name="bankName" required minlength="2" maxlength="140" value="${account.bankName}"
    /></label>
    <label
      >${t('money.accounts.holder')}
      <input type="text" name="holderName" required minlength="2" maxlength="140" value="${account.holderName}"
    /></label>
    ${numberFields(account)}
    <div><button type="submit" class="btn primary">${t('money.accounts.edit.button')}</button></div>
  </form>`;
}

function accountColumns(isAdmin: boolean): Array<Column<ReceivingAccount>> {
  const none = html`<span class="muted">${t('money.accounts.none')}</span>`;
  const edit = t('money.accounts.edit');
  return [
    { header: t('money.accounts.bank'), cell: (a) => a.bankName },
    { header: t('money.accounts.col.holder'), cell: (a) => a.holderName },
    { header: 'IBAN', cell: (a) => html`<code>${a.iban}</code>` },
    { header: t('money.accounts.number'), cell: (a) => (a.accountNumber ? html`<code>${a.accountNumber}</code>` : none) },
    { header: t('money.accounts.col.branch'), cell: (a) => (a.branchCode ? html`<code>${a.branchCode}</code>` : none) },
    { header: t('money.accounts.col.active'), cell: (a) => t(a.active ? 'money.accounts.yes' : 'money.accounts.no') },
    ...(isAdmin ? [{ header: '', cell: (a: ReceivingAccount) => html`<a href="/receiving-accounts/${seg(a.id)}">${edit}</a>` }] : []),
  ];
}

/**
 * What the edit form changed, in the ops API's types: only the fields that differ from the account now, an emptied
 * number or branch code as null. The ledger checks the digits and names a bad field.
 */
function changedFields(account: ReceivingAccount, field: (name: string) => string): Record<string, string | null> {
  const out: Record<string, string | null> = {};
  for (const name of ['bankName', 'holderName'] as const) if (field(name) !== account[name]) out[name] = field(name);
  for (const name of ['accountNumber', 'branchCode'] as const) {
    const value = field(name).replace(/\s+/g, '') || null;
    if (value !== account[name]) out[name] = value;
  }
  return out;
}

async function accountOr404(ctx: { ops: PageContext['ops'] }, accountId: string): Promise<ReceivingAccount> {
  const account = (await ctx.ops.call('listReceivingAccounts')).data.find((a) => a.id === accountId);
  if (!account) throw new AppError('not_found', t('money.accounts.notFound'));
  return account;
}

/**
 * `/receiving-accounts`: the house's bank accounts, and for admins the forms that add one and change one's names,
 * account number and branch code (the number and code a bank's statement may name the account by).
 */
export function receivingAccountRoutes(deps: ConsoleDeps): Router {
  const router = express.Router();

  router.get('/receiving-accounts', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const accounts = (await ctx.ops.call('listReceivingAccounts')).data;
    const body = html`<p class="hint">${t('money.accounts.hint')}</p>
      ${table({ columns: accountColumns(ctx.isAdmin), rows: accounts, rowId: (a) => a.id, empty: t('money.noAccounts') })}
      ${
        ctx.isAdmin
          ? html`<section>
              <h2>${t('money.accounts.new')}</h2>
              ${createAccountForm(ctx)}
            </section>`
          : html`<p class="hint">${t('money.accounts.adminOnly')}</p>`
      }`;
    ctx.render(t('common.nav.bank-accounts'), 'bank-accounts', body);
  });

  router.get('/receiving-accounts/:accountId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const account = await accountOr404(ctx, pathParam(req, 'accountId'));
    const body = html`<p><code>${account.iban}</code></p>
      <p class="muted">
        ${th('money.accounts.auditNote', {
          link: html`<a href="/audit?entityType=receiving_account&amp;entityId=${seg(account.id)}">${t('money.accounts.auditLink')}</a>`,
        })}
      </p>
      ${ctx.isAdmin ? editAccountForm(ctx, account) : html`<p class="hint">${t('money.accounts.editAdminOnly')}</p>`}`;
    ctx.render(t('money.accounts.detailTitle', { bank: account.bankName }), 'bank-accounts', body);
  });

  router.post('/receiving-accounts', async (req, res) => {
    const ctx = actionContext(deps, req, res, '/receiving-accounts');
    const optional = (name: string) => ctx.field(name).replace(/\s+/g, '') || undefined;
    const accountNumber = optional('accountNumber');
    const branchCode = optional('branchCode');
    await ctx.ops.call('createReceivingAccount', {
      body: {
        bankName: ctx.field('bankName'),
        holderName: ctx.field('holderName'),
        iban: ctx.field('iban'),
        ...(accountNumber ? { accountNumber } : {}),
        ...(branchCode ? { branchCode } : {}),
      },
    });
    ctx.done('receiving-account-created', '/receiving-accounts');
  });

  router.post('/receiving-accounts/:accountId', async (req, res) => {
    const accountId = pathParam(req, 'accountId');
    const ctx = actionContext(deps, req, res, `/receiving-accounts/${seg(accountId)}`);
    const changes = changedFields(await accountOr404(ctx, accountId), (name) => ctx.field(name));
    if (Object.keys(changes).length === 0) {
      ctx.done('receiving-account-unchanged', `/receiving-accounts/${seg(accountId)}`);
      return;
    }
    await ctx.ops.call('updateReceivingAccount', { params: { accountId }, body: changes });
    ctx.done('receiving-account-saved', '/receiving-accounts');
  });

  return router;
}
