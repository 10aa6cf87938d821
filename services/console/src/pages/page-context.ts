import type { Request, Response } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import type { OpsClient } from '@kasa/ops-client';
import { operatorOf, safeLocalPath } from '../session/session.middleware.js';
import type { SessionOperator } from '../session/session.js';
import type { FormContext } from '../views/components.js';
import type { SafeHtml } from '../views/html.js';
import { renderPage } from '../views/layout.js';
import { noticeText, withNotice, type NoticeCode } from '../views/notices.js';
import type { Section } from '../views/sections.js';

/** One string parameter of the query or form; repeated or missing parameters read as undefined. */
export function param(source: unknown, name: string): string | undefined {
  const value = (source as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** What a page handler works with: the operator, the ops API as them, and how to render. */
export interface PageContext extends FormContext {
  operator: SessionOperator;
  ops: OpsClient;
  isAdmin: boolean;
  query(name: string): string | undefined;
  /** `searched`: what the header's search box shows (the search results page passes the query). */
  render(title: string, section: Section, body: SafeHtml, status?: number, searched?: string): void;
}

export function pageContext(deps: ConsoleDeps, req: Request, res: Response): PageContext {
  const operator = operatorOf(res);
  const session = res.locals.consoleSession;
  const csrf = deps.sessions.csrfToken(session?.sid ?? '');
  // The notice belongs to this visit only; forms on the page return to it without the notice.
  const here = new URL(req.originalUrl, 'http://console.invalid');
  here.searchParams.delete('notice');
  return {
    operator,
    ops: deps.ledger.with({ token: operator.token, requestId: req.requestId }),
    isAdmin: operator.role === 'ADMIN',
    csrf,
    back: `${here.pathname}${here.search}`,
    query: (name) => param(req.query, name),
    render(title, section, body, status = 200, searched) {
      const notice = noticeText(req.query.notice);
      res
        .status(status)
        .type('html')
        .send(
          renderPage(
            { title, section, operator, csrf, notice, here: `${here.pathname}${here.search}`, ...(searched ? { searched } : {}) },
            body,
          ),
        );
    },
  };
}

/** What an action (a form POST) works with: the ops API, the submitted fields, and where to go after. */
export interface ActionContext {
  ops: OpsClient;
  operator: SessionOperator;
  back: string;
  /** A submitted text field, trimmed; '' when absent. */
  field(name: string): string;
  /** POST-redirect-GET back to the form's page with a confirmation. */
  done(notice: NoticeCode, to?: string): void;
}

export function actionContext(deps: ConsoleDeps, req: Request, res: Response, fallback: string): ActionContext {
  const operator = operatorOf(res);
  const back = safeLocalPath(param(req.body, '_back'), fallback);
  return {
    ops: deps.ledger.with({ token: operator.token, requestId: req.requestId }),
    operator,
    back,
    field: (name) => (param(req.body, name) ?? '').trim(),
    done(notice, to = back) {
      res.redirect(303, withNotice(to, notice));
    },
  };
}
