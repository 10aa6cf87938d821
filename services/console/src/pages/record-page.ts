import type { Router } from 'express';
import type { ConsoleDeps } from '../console-deps.js';
import type { MessageKey } from '../i18n/index.js';
import type { NavSection } from '../views/sections.js';

/** An audited entity type with words for it in the catalogue (`records.audit.entity.<type>`). */
type NamedEntityType<K = MessageKey> = K extends `records.audit.entity.${infer Type}` ? Type : never;

/**
 * What a kind of reviewed record (deposits, withdrawals, bank transfers, returns to senders) declares in its page file
 * for the console to serve it and link to it; listed once in RECORD_PAGES (record-pages.ts). Its navigation link, who
 * may open it and its exported list are its section's row in views/sections.ts, which layout.ts reads without importing
 * any page.
 */
export interface RecordPage {
  /** The section its pages are shown under, with the navigation link to its list. */
  readonly section: NavSection;
  /** Its routers, which app.ts mounts behind the login. */
  readonly routes: ReadonlyArray<(deps: ConsoleDeps) => Router>;
  /**
   * How the audit log shows its records: the entity type their entries carry, and where one record's page is (its id
   * follows), or null where the audit log does not link.
   */
  readonly audit: { readonly entityType: NamedEntityType; readonly detailPrefix: string | null };
}
