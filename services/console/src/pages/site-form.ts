import { t } from '../i18n/index.js';
import { readLira } from '../views/format.js';

/** A site's numeric settings as the ops API takes them. */
export interface SiteNumbers {
  rateLimitPerMinute?: number;
  depositTtlSeconds?: number;
  minAmount?: string;
  maxAmount?: string;
}

/**
 * The numeric settings of a site form (new site, or a site's settings): whole numbers, and amounts typed in
 * lira read by @kasa/money as everywhere. An empty field is left out, or refused when `required`; what
 * cannot be read names its field in `bad`.
 */
export function readSiteNumbers(
  field: (name: string) => string,
  required: boolean,
): { values: SiteNumbers; bad: Array<{ field: string; message: string }> } {
  const values: SiteNumbers = {};
  const bad: Array<{ field: string; message: string }> = [];
  for (const name of ['rateLimitPerMinute', 'depositTtlSeconds'] as const) {
    const typed = field(name);
    if (!typed && !required) continue;
    if (/^\d{1,9}$/.test(typed)) values[name] = Number(typed);
    else bad.push({ field: name, message: t('sites.form.wholeNumber') });
  }
  for (const name of ['minAmount', 'maxAmount'] as const) {
    const typed = field(name);
    if (!typed && !required) continue;
    const read = readLira(typed);
    if ('minor' in read) values[name] = read.minor;
    else bad.push({ field: name, message: read.problem });
  }
  return { values, bad };
}
