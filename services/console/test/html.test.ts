import { describe, expect, it } from '@jest/globals';
import { html, trustedHtml } from '../src/views/html.js';
import { formatTry, groupIban, liraInputValue, maskIban, readLira } from '../src/views/format.js';
import { withNotice, noticeText } from '../src/views/notices.js';
import { safeLocalPath } from '../src/session/session.middleware.js';

describe('html template', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const hostile = `<script>alert("x")</script>' onmouseover='x' \``;
    const out = html`<p title="${hostile}">${hostile}</p>`.value;
    expect(out).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;x&#39; &#96;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;x&#39; &#96;</p>',
    );
  });

  it('passes nested templates through, joins arrays, and renders nothing for null, undefined and false', () => {
    const items = ['a&b', 'c'];
    // The exact markup is what is being checked, so the formatter must not reflow it.
    // prettier-ignore
    const out = html`<ul>${items.map((item) => html`<li>${item}</li>`)}</ul>${null}${undefined}${false}${0}`.value;
    expect(out).toBe('<ul><li>a&amp;b</li><li>c</li></ul>0');
  });

  it('keeps trusted constants as they are', () => {
    expect(html`${trustedHtml('<br>')}`.value).toBe('<br>');
  });
});

describe('money and IBAN formatting', () => {
  it('formats kurus as Turkish lira without floating point', () => {
    expect(formatTry('150000')).toBe('1.500,00 ₺');
    expect(formatTry('100000000000000000')).toBe('1.000.000.000.000.000,00 ₺');
    expect(formatTry('5')).toBe('0,05 ₺');
    expect(formatTry('-1005')).toBe('-10,05 ₺');
    expect(formatTry(null)).toBe('—');
  });

  it('reads an operator amount in lira into kurus and refuses ambiguous or non-positive input', () => {
    expect(readLira('1500')).toEqual({ minor: '150000' });
    expect(readLira(' 1500,5 ')).toEqual({ minor: '150050' });
    expect(readLira('1500.05')).toEqual({ minor: '150005' });
    expect(readLira('1.500,00')).toEqual({ minor: '150000' });
    expect(readLira('0,01')).toEqual({ minor: '1' });
    for (const bad of ['', '0', '0,00', '1.500', '-5', '12,345', 'abc', '1e3']) expect(readLira(bad)).toHaveProperty('problem');
    // Inputs show amounts as the tables do, and read that form back as the same amount.
    expect(liraInputValue('198500')).toBe('1.985,00');
    expect(readLira(liraInputValue('100000000'))).toEqual({ minor: '100000000' });
  });

  it('masks IBANs everywhere but the payout view, which groups them for typing', () => {
    expect(maskIban('TR330006100519786457841326')).toBe('TR**…1326');
    expect(groupIban('TR330006100519786457841326')).toBe('TR33 0006 1005 1978 6457 8413 26');
  });
});

describe('redirect targets', () => {
  it('accepts only paths on this console', () => {
    expect(safeLocalPath('/review?intentsCursor=abc', '/')).toBe('/review?intentsCursor=abc');
    for (const bad of [
      '//evil.example/',
      '/\\evil.example',
      'https://evil.example/',
      'javascript:alert(1)',
      '/a b',
      undefined,
      ['/review'],
    ]) {
      expect(safeLocalPath(bad, '/fallback')).toBe('/fallback');
    }
  });

  it('adds a notice code to the return path and shows only known codes', () => {
    expect(withNotice('/withdrawals?status=APPROVED&notice=old', 'withdrawal-sent')).toBe(
      '/withdrawals?status=APPROVED&notice=withdrawal-sent',
    );
    expect(noticeText('intent-approved')).toContain('Deposit approved');
    expect(noticeText('<b>anything</b>')).toBeNull();
    expect(noticeText('toString')).toBeNull();
  });
});
