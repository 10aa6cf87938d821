import express, { type Router } from 'express';
import { pathParam, AppError } from '@kasa/http';
import type { ReceivingAccount } from '@kasa/contracts';
import { seg } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { html, safeUrl, type SafeHtml } from '../views/html.js';
import { table, type Column } from '../views/table.js';
import { actionContext, pageContext, type PageContext } from './page-context.js';

const NUMBER_HINT = "The bank's own number for the account, for statements that name it instead of the IBAN. Digits; empty: none.";
const BRANCH_HINT = 'The branch (şube) code the bank writes beside the account number, as in 0067-00763/93984487. Digits; empty: none.';

/** The account number and branch code fields, filled with `account`'s (the same on the new-account form, empty). */
function numberFields(account?: ReceivingAccount): SafeHtml {
  return html`<label
      >Account number
      <input
        type="text"
        name="accountNumber"
        inputmode="numeric"
        pattern="[0-9]{5,20}"
        maxlength="20"
        value="${account?.accountNumber ?? ''}"
      /><small>${NUMBER_HINT}</small></label
    >
    <label
      >Branch code
      <input
        type="text"
        name="branchCode"
        inputmode="numeric"
        pattern="[0-9]{1,5}"
        maxlength="5"
        value="${account?.branchCode ?? ''}"
      /><small>${BRANCH_HINT}</small></label
    >`;
}

function createAccountForm(ctx: PageContext): SafeHtml {
  return html`<form
    method="post"
    action="/receiving-accounts"
    class="card grid-form"
    data-confirm="Add this receiving account? Deposits are sent to it in turn."
  >
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
    <label>Bank <input type="text" name="bankName" required minlength="2" maxlength="140" placeholder="Ziraat Bankası" /></label>
    <label
      >Account holder <input type="text" name="holderName" required minlength="2" maxlength="140" placeholder="Kasa Ödeme Hizmetleri A.Ş."
    /></label>
    <label
      >IBAN <input type="text" name="iban" required minlength="15" maxlength="42" placeholder="TR33 0006 1005 1978 6457 8413 26"
    /></label>
    ${numberFields()}
    <div><button type="submit" class="btn primary">Add receiving account</button></div>
  </form>`;
}

function editAccountForm(ctx: PageContext, account: ReceivingAccount): SafeHtml {
  return html`<form
    method="post"
    action="${safeUrl(`/receiving-accounts/${seg(account.id)}`)}"
    class="card grid-form"
    data-confirm="Save the changes to this receiving account? The change is audited."
  >
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
    <label>Bank <input type="text" name="bankName" required minlength="2" maxlength="140" value="${account.bankName}" /></label>
    <label
      >Account holder <input type="text" name="holderName" required minlength="2" maxlength="140" value="${account.holderName}"
    /></label>
    ${numberFields(account)}
    <div><button type="submit" class="btn primary">Save account</button></div>
  </form>`;
}

function accountColumns(isAdmin: boolean): Array<Column<ReceivingAccount>> {
  const none = html`<span class="muted">none</span>`;
  return [
    { header: 'Bank', cell: (a) => a.bankName },
    { header: 'Holder', cell: (a) => a.holderName },
    { header: 'IBAN', cell: (a) => html`<code>${a.iban}</code>` },
    { header: 'Account number', cell: (a) => (a.accountNumber ? html`<code>${a.accountNumber}</code>` : none) },
    { header: 'Branch', cell: (a) => (a.branchCode ? html`<code>${a.branchCode}</code>` : none) },
    { header: 'Active', cell: (a) => (a.active ? 'yes' : 'no') },
    ...(isAdmin ? [{ header: '', cell: (a: ReceivingAccount) => html`<a href="/receiving-accounts/${seg(a.id)}">Edit</a>` }] : []),
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
  if (!account) throw new AppError('not_found', 'No receiving account with this id.');
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
    const body = html`<p class="hint">
        The service's own bank accounts. A statement is imported into an account when it names the account's IBAN, or its account number
        (with its branch code, when both give one).
      </p>
      ${table({ columns: accountColumns(ctx.isAdmin), rows: accounts, rowId: (a) => a.id, empty: 'No receiving accounts yet.' })}
      ${
        ctx.isAdmin
          ? html`<section>
              <h2>New receiving account</h2>
              ${createAccountForm(ctx)}
            </section>`
          : html`<p class="hint">Adding or changing receiving accounts needs the admin role.</p>`
      }`;
    ctx.render('Bank accounts', 'bank-accounts', body);
  });

  router.get('/receiving-accounts/:accountId', async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const account = await accountOr404(ctx, pathParam(req, 'accountId'));
    const body = html`<p><code>${account.iban}</code></p>
      <p class="muted">
        Every change is in the <a href="/audit?entityType=receiving_account&amp;entityId=${seg(account.id)}">audit log</a>.
      </p>
      ${ctx.isAdmin ? editAccountForm(ctx, account) : html`<p class="hint">Changing a receiving account needs the admin role.</p>`}`;
    ctx.render(`${account.bankName}: receiving account`, 'bank-accounts', body);
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
