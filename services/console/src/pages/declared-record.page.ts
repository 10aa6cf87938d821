/**
 * The pages of every record kind that declares them in its contract module (the `console` part of OPS_RECORD_KINDS,
 * @kasa/contracts; balance adjustments): at its path, the list by status tab (the first tab is the queue, read oldest
 * first) with the form that makes one; a record's page with its facts and the steps its status allows; and the posts of
 * both. record-pages.ts lists a descriptor for each, so a new declared kind touches no console file.
 */
import express, { type Router } from 'express';
import { opsBodyField, type ConsoleCreate, type ConsoleStep, type OpsRecordConsole } from '@kasa/contracts';
import { AppError, pathParam } from '@kasa/http';
import { seg, withQuery, type OpsClient } from '@kasa/ops-client';
import type { ConsoleDeps } from '../console-deps.js';
import { DECLARED_KINDS, type DeclaredKind } from '../i18n/declared.js';
import { t, th } from '../i18n/index.js';
import { actionForm, currentTab, facts, nextPageLink, statusLabel, tabs } from '../views/components.js';
import { readLira } from '../views/format.js';
import { html, safeUrl, type HtmlValue, type SafeHtml } from '../views/html.js';
import { isNoticeCode, type NoticeCode } from '../views/notices.js';
import { table } from '../views/table.js';
import { cell, declaredWord, fieldText, text, type DeclaredRow } from './declared-record-values.js';
import { actionContext, pageContext, type PageContext } from './page-context.js';
import type { RecordPage } from './record-page.js';
import { withSites, type SiteDirectory } from './site-names.js';

/** What a declared kind's pages call: its operations by their ids as text, each answering a record or a page of them. */
type DeclaredCall = (
  operationId: string,
  input: { params?: Record<string, string>; query?: Record<string, string | undefined>; body?: Record<string, string> },
) => Promise<unknown>;

function callOf(ops: OpsClient): DeclaredCall {
  // One cast: OpsCall is typed operation by operation, and a declaration names its operations as text. Its module's
  // compiler check (OpsRecordConsoleOf) held them to the kind's own list, read, create and step operations, with the
  // path parameters used here; what they answer is read as plain fields (declared-record-values.ts).
  return ops.call as unknown as DeclaredCall;
}

const isRow = (value: unknown): value is DeclaredRow => typeof value === 'object' && value !== null && !Array.isArray(value);

/** A list operation's page, its records as plain fields. */
function pageOf(answer: unknown): { data: DeclaredRow[]; nextCursor: string | null } {
  const page = isRow(answer) ? answer : {};
  const data = Array.isArray(page.data) ? page.data.filter(isRow) : [];
  return { data, nextCursor: typeof page.nextCursor === 'string' ? page.nextCursor : null };
}

function noticeOf(code: string): NoticeCode {
  // The catalogue holds every notice a declaration names (i18n/declared.ts), and the compiler checked the names.
  if (!isNoticeCode(code)) throw new Error(`The catalogue has no notice ${code}: its declaration is not among OPS_RECORD_KINDS'.`);
  return code;
}

function mayAct(ctx: PageContext, c: OpsRecordConsole): boolean {
  return c.actor === 'REVIEWER' || ctx.isAdmin;
}

/** The form that makes a record on a live site, or why there is none to choose. */
function createForm(ctx: PageContext, kind: DeclaredKind, create: ConsoleCreate, sites: SiteDirectory): SafeHtml {
  const c = kind.console;
  const live = [...sites.values()].filter((site) => site.livemode);
  if (live.length === 0) return html`<p class="hint">${declaredWord(c, create.site.none)}</p>`;
  const inputs = create.inputs.map((input) => {
    const field = opsBodyField(create.operation, input.name);
    const label = declaredWord(c, input.label);
    if (input.input === 'choice')
      return html`<label
        >${label}
        <select name="${input.name}" ${field.required ? html` required=""` : ''}>
          ${field.choices.map((value) => html`<option value="${value}">${declaredWord(c, `${input.choice}.${value}`)}</option>`)}
        </select></label
      >`;
    const hint = input.hint ? html`<small>${declaredWord(c, input.hint)}</small>` : '';
    // Lira is typed as people write it ("1.500,00"), so its length is the console's, not the body's digits.
    const typed =
      input.input === 'lira'
        ? html`<input type="text" name="${input.name}" required inputmode="decimal" maxlength="32" />`
        : html`<input
            type="text"
            name="${input.name}"
            ${field.required ? html` required=""` : ''}
            maxlength="${field.maxLength ?? 500}"
          />`;
    return html`<label>${label} ${typed} ${hint}</label>`;
  });
  return html`<form method="post" action="${safeUrl(c.path)}" class="card grid-form" data-confirm="${declaredWord(c, create.confirm)}">
    <input type="hidden" name="_csrf" value="${ctx.csrf}" /><input type="hidden" name="_back" value="${ctx.back}" />
    <label
      >${declaredWord(c, create.site.label)}
      <select name="siteId" required>
        ${live.map((site) => html`<option value="${site.siteId}">${site.slug}</option>`)}
      </select></label
    >
    ${inputs}
    <div class="form-end"><button type="submit" class="btn primary">${declaredWord(c, create.button)}</button></div>
  </form>`;
}

/** One step's button with its confirmation, or its four-eyes hint to the operator it is not for. */
function stepForm(ctx: PageContext, c: OpsRecordConsole, step: ConsoleStep, row: DeclaredRow, sites: SiteDirectory): SafeHtml {
  if (step.notBy && fieldText(row, step.notBy.field) === ctx.operator.operatorId)
    return html`<p class="hint">${declaredWord(c, step.notBy.hint)}</p>`;
  const params = Object.fromEntries(Object.entries(step.confirm.params).map(([name, show]) => [name, text(c, show, row, sites) ?? '']));
  const reason = step.reason ? declaredWord(c, step.reason) : null;
  return actionForm(ctx, {
    action: `${c.path}/${seg(fieldText(row, c.id) ?? '')}/${step.path}`,
    label: declaredWord(c, step.label),
    tone: step.tone,
    confirm: declaredWord(c, step.confirm.words, params),
    fields: reason ? html`<input type="text" name="reason" required maxlength="500" placeholder="${reason}" aria-label="${reason}" />` : '',
  });
}

/** What may be done with the record now: its steps, or why there are none for this operator. */
function nextStep(ctx: PageContext, c: OpsRecordConsole, row: DeclaredRow, sites: SiteDirectory): SafeHtml {
  const status = fieldText(row, 'status') ?? '';
  const open = c.steps.filter((step) => step.from.includes(status));
  if (open.length === 0) return html`<p class="muted">${declaredWord(c, 'none', { status: statusLabel(status) })}</p>`;
  if (!mayAct(ctx, c))
    return html`<p class="muted">${declaredWord(c, 'waiting')}</p>
      <p class="hint">${declaredWord(c, 'actorOnly')}</p>`;
  return html`${c.words.stepsHint ? html`<p class="hint">${declaredWord(c, 'stepsHint')}</p>` : ''}
    <div class="actions">${open.map((step) => html`${stepForm(ctx, c, step, row, sites)} `)}</div>`;
}

/** A declared kind's list, record page, create and steps. */
function declaredRecordRoutes(deps: ConsoleDeps, kind: DeclaredKind): Router {
  const router = express.Router();
  const c: OpsRecordConsole = kind.console;
  const section = kind.console.section.name;
  const word = (name: string, params?: Record<string, string>) => declaredWord(c, name, params);
  const recordPath = (row: DeclaredRow) => `${c.path}/${seg(fieldText(row, c.id) ?? '')}`;

  router.get(c.path, async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const statusTabs = c.tabs.map(({ status, label }): [string, string] => [status, word(label)]);
    const queue = c.tabs[0]?.status ?? '';
    const status = currentTab(statusTabs, ctx.query('status'), queue);
    // The queue is read oldest first, as it is worked; what was decided, newest first.
    const order = status === queue ? { order: 'oldest' } : {};
    const query = { status, ...order, limit: '50', cursor: ctx.query('cursor') };
    const [answer, sites] = await withSites(ctx.ops, callOf(ctx.ops)(c.list, { query }));
    const page = pageOf(answer);
    const columns = c.columns.map((column) => ({
      header: word(column.label),
      ...(column.show === 'amount' ? { class: 'num' } : column.show === 'site' ? { cellClass: 'nowrap' } : {}),
      cell: (row: DeclaredRow) =>
        column.link ? html`<a href="${safeUrl(recordPath(row))}">${cell(c, column, row, sites)}</a>` : cell(c, column, row, sites),
    }));
    const create = c.create && mayAct(ctx, c) ? c.create : null;
    const body = html`${tabs(c.path, status, statusTabs)}
      <p class="hint">${word('hint')}</p>
      ${table({ columns, rows: page.data, rowId: (row) => fieldText(row, c.id) ?? '', empty: word('empty') })}
      ${nextPageLink(c.path, { status }, page.nextCursor)}
      ${
        create
          ? html`<section>
              <h2>${word(create.heading)}</h2>
              <p class="hint">${word(create.hint)}</p>
              ${createForm(ctx, kind, create, sites)}
            </section>`
          : mayAct(ctx, c)
            ? ''
            : html`<p class="hint">${word('actorOnly')}</p>`
      }`;
    ctx.render(word('title'), section, body);
  });

  router.get(`${c.path}/:${c.id}`, async (req, res) => {
    const ctx = pageContext(deps, req, res);
    const id = pathParam(req, c.id);
    const [answer, sites] = await withSites(ctx.ops, callOf(ctx.ops)(c.read, { params: { [c.id]: id } }));
    const row = isRow(answer) ? answer : {};
    const rows = c.facts.map((fact): [string, HtmlValue] => {
      const shown = cell(c, fact, row, sites);
      // The amount is what a decision is about: it stands out among the facts.
      return [word(fact.label), fact.show === 'amount' && shown ? html`<strong>${shown}</strong>` : shown];
    });
    const audit = safeUrl(withQuery('/audit', { entityType: c.audit.entityType, entityId: id }));
    const body = html`<section class="card">
      ${facts(rows)}
      <h2>${t('records.col.nextStep')}</h2>
      ${nextStep(ctx, c, row, sites)}
      <p class="muted">${th('records.declared.steps', { link: html`<a href="${audit}">${t('records.declared.auditLog')}</a>` })}</p>
    </section>`;
    ctx.render(word('recordTitle', { reference: fieldText(row, c.reference) ?? id }), section, body);
  });

  const create = c.create;
  if (create)
    router.post(c.path, async (req, res) => {
      const ctx = actionContext(deps, req, res, c.path);
      const body: Record<string, string> = {};
      const problems: Array<{ field: string; message: string }> = [];
      for (const input of create.inputs) {
        const typed = ctx.field(input.name);
        if (input.input === 'choice') {
          if (opsBodyField(create.operation, input.name).choices.includes(typed)) body[input.name] = typed;
          else problems.push({ field: input.name, message: word(input.invalid) });
        } else if (input.input === 'lira') {
          // Read as lira as on every surface, and refused here naming the field before the ledger is asked.
          const amount = readLira(typed);
          if ('problem' in amount) problems.push({ field: input.name, message: amount.problem });
          else body[input.name] = amount.minor;
        } else body[input.name] = typed;
      }
      if (problems.length > 0) throw AppError.validation(problems, word(create.invalid));
      const made = await callOf(ctx.ops)(create.operation, { params: { siteId: ctx.field('siteId') }, body });
      ctx.done(noticeOf(create.notice), recordPath(isRow(made) ? made : {}));
    });

  for (const step of c.steps)
    router.post(`${c.path}/:${c.id}/${step.path}`, async (req, res) => {
      const id = pathParam(req, c.id);
      const ctx = actionContext(deps, req, res, `${c.path}/${seg(id)}`);
      await callOf(ctx.ops)(step.operation, { params: { [c.id]: id }, ...(step.reason ? { body: { reason: ctx.field('reason') } } : {}) });
      ctx.done(noticeOf(step.notice));
    });

  return router;
}

/** Each declared kind as a kind of reviewed record (record-pages.ts): its section, its pages, and its audit link. */
export const DECLARED_RECORD_PAGES: readonly RecordPage[] = DECLARED_KINDS.map((kind) => ({
  section: kind.console.section.name,
  routes: [(deps: ConsoleDeps) => declaredRecordRoutes(deps, kind)],
  audit: { entityType: kind.console.audit.entityType, detailPrefix: `${kind.console.path}/` },
}));
