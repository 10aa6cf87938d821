import { describe, expect, it } from '@jest/globals';
import { SafeHtml, escapeHtml, html, localUrl, pathSegment, safeUrl, trustedHtml, trySafeUrl } from '../src/index.js';

const XSS = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "' onmouseover='alert(1)",
  '" onmouseover="alert(1)',
  '`${alert(1)}`',
  '</textarea><svg/onload=alert(1)>',
  '&lt;script&gt;',
];

describe('html escapes by default', () => {
  it('escapes every interpolated value, in text and in attributes', () => {
    const hostile = `<script>alert("x")</script>' onmouseover='x' \``;
    const out = html`<p title="${hostile}">${hostile}</p>`.value;
    expect(out).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;x&#39; &#96;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;&#39; onmouseover=&#39;x&#39; &#96;</p>',
    );
  });

  // The markup under test is exact (single quotes included), so the formatter must not rewrite it.
  // prettier-ignore
  it.each(XSS)('leaves no markup characters of %s in text, double- or single-quoted attributes', (payload) => {
    const out = html`<p data-a="${payload}" data-b='${payload}'>${payload}</p>`.value;
    // Only the template's own delimiters remain: the payload cannot open a tag or close an attribute.
    expect(out.match(/</g)).toHaveLength(2);
    expect(out.match(/>/g)).toHaveLength(2);
    expect(out.match(/"/g)).toHaveLength(2);
    expect(out.match(/'/g)).toHaveLength(2);
    expect(out).not.toContain('`');
    expect(out).toBe(`<p data-a="${escapeHtml(payload)}" data-b='${escapeHtml(payload)}'>${escapeHtml(payload)}</p>`);
  });

  it('escapes text that only looks escaped, so it reads back as typed', () => {
    expect(html`${'&lt;b&gt;'}`.value).toBe('&amp;lt;b&amp;gt;');
  });

  it('passes nested templates through without escaping them twice, and joins arrays', () => {
    const items = ['a&b', '<c>'];
    // The exact markup is what is being checked, so the formatter must not reflow it.
    // prettier-ignore
    const out = html`<ul>${items.map((item) => html`<li title="${item}">${item}</li>`)}</ul>`.value;
    expect(out).toBe('<ul><li title="a&amp;b">a&amp;b</li><li title="&lt;c&gt;">&lt;c&gt;</li></ul>');
    expect(html`<div>${html`<p>${html`<b>${'&'}</b>`}</p>`}</div>`.value).toBe('<div><p><b>&amp;</b></p></div>');
  });

  it('renders nothing for null, undefined and false, and numbers and bigints as text', () => {
    // prettier-ignore
    const out = html`${null}${undefined}${false}${0}${12n}${[]}`.value;
    expect(out).toBe('012');
  });

  it('keeps trusted constants and SafeHtml as they are', () => {
    expect(html`${trustedHtml('<br>')}`.value).toBe('<br>');
    expect(html`${new SafeHtml('<hr>')}`.toString()).toBe('<hr>');
  });
});

describe('URLs', () => {
  it('accepts absolute http(s) URLs and paths on this origin', () => {
    for (const ok of [
      '/',
      '/review',
      '/sites?cursor=a%2Fb&status=x#top',
      'https://kasa.example/deposit/abc',
      'HTTP://kasa.example:8080/x?y=1',
    ]) {
      expect(safeUrl(ok).value).toBe(ok);
    }
  });

  it('refuses script and data URLs, other schemes, protocol-relative and relative URLs', () => {
    for (const bad of [
      'javascript:alert(1)',
      'JavaScript:alert(1)',
      ' javascript:alert(1)',
      'java\tscript:alert(1)',
      'javascript&colon;alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'vbscript:msgbox(1)',
      'mailto:a@b.example',
      'file:///etc/passwd',
      '//evil.example/',
      '/\\evil.example',
      '\\\\evil.example',
      'https:evil.example',
      'https://',
      'review',
      '?x=1',
      '#top',
      '',
      '/a b',
      '/a\nb',
    ]) {
      expect(() => safeUrl(bad)).toThrow(TypeError);
      expect(trySafeUrl(bad)).toBeNull();
    }
    expect(trySafeUrl(undefined)).toBeNull();
    expect(trySafeUrl(['/review'])).toBeNull();
  });

  it('lets a URL attribute start only with a SafeUrl or a literal', () => {
    expect(html`<a href="${safeUrl('/sites?a=1&b=2')}">x</a>`.value).toBe('<a href="/sites?a=1&amp;b=2">x</a>');
    expect(html`<a href="/intents/${'a"b'}">x</a>`.value).toBe('<a href="/intents/a&quot;b">x</a>');
    expect(html`<a href="${null}">x</a>`.value).toBe('<a href="">x</a>');
    for (const hostile of ['javascript:alert(1)', '/review', '//evil.example']) {
      expect(() => html`<a href="${hostile}">x</a>`).toThrow(/href attribute takes a SafeUrl/);
      expect(() => html`<script src="${hostile}"></script>`).toThrow(/src attribute/);
      // prettier-ignore
      expect(() => html`<form method="post" action='${hostile}'></form>`).toThrow(/action attribute/);
      expect(() => html`<button formaction=${hostile}></button>`).toThrow(/formaction attribute/);
      // prettier-ignore
      expect(() => html`<A HREF = "${hostile}">x</A>`).toThrow(/href attribute/);
      // A lone slash fixes nothing: "/" + "/evil.example" is protocol-relative.
      expect(() => html`<a href="/${hostile}">x</a>`).toThrow(/href attribute/);
    }
    expect(() => html`<a href="${trustedHtml('javascript:alert(1)')}">x</a>`).toThrow(/not SafeHtml/);
    expect(() => html`<a href="${[safeUrl('/x')]}">x</a>`).toThrow(/not an array/);
  });

  it('treats values after the start of a URL attribute, and in other attributes and text, as escaped text', () => {
    const id = 'javascript:alert(1)';
    expect(html`<a href="${safeUrl('/audit/')}${id}" title="${id}">${id}</a>`.value).toBe(
      '<a href="/audit/javascript:alert(1)" title="javascript:alert(1)">javascript:alert(1)</a>',
    );
    expect(html`<p data-url="${id}">${safeUrl('/x?a&b')}</p>`.value).toBe('<p data-url="javascript:alert(1)">/x?a&amp;b</p>');
  });

  // prettier-ignore
  it('is not fooled by quotes and angle brackets in text, comments or raw-text elements', () => {
    const hostile = 'javascript:alert(1)';
    expect(html`<p>href="${hostile}"</p>`.value).toBe('<p>href="javascript:alert(1)"</p>');
    expect(html`<script>var s = '<a href="';</script><p>${hostile}</p>`.value).toContain('<p>javascript:alert(1)</p>');
    expect(() => html`<style>p[title="x"] {}</style><a href="${hostile}">x</a>`).toThrow(/href attribute/);
    expect(html`<!-- <a href=" -->${hostile}`.value).toBe('<!-- <a href=" -->javascript:alert(1)');
    expect(html`<p title="a>b">x</p><a href="${safeUrl('/ok')}">${hostile}</a>`.value).toContain('href="/ok"');
    expect(() => html`<p title='"'>x</p><a href="${hostile}">y</a>`).toThrow(/href attribute/);
  });

  it('builds same-origin URLs from a literal with every value percent-encoded', () => {
    expect(localUrl`/intents/${'a/b?c#d'}/approve`.value).toBe('/intents/a%2Fb%3Fc%23d/approve');
    expect(localUrl`/sites?cursor=${'x&y=..'}&limit=${50}`.value).toBe('/sites?cursor=x%26y%3D..&limit=50');
    expect(localUrl`/${'//evil.example'}`.value).toBe('/%2F%2Fevil.example');
    expect(() => localUrl`${'/review'}`).toThrow(TypeError);
    expect(() => localUrl`//${'evil.example'}`).toThrow(TypeError);
    expect(() => localUrl`https://${'evil.example'}/`).toThrow(TypeError);
    expect(() => localUrl`/intents/${'..'}/approve`).toThrow(/path segment/);
  });

  it('encodes path segments so slashes, queries and fragments stay data', () => {
    expect(pathSegment('a b/c?d#e&f')).toBe('a%20b%2Fc%3Fd%23e%26f');
    expect(pathSegment(42)).toBe('42');
    expect(() => pathSegment('.')).toThrow(TypeError);
    expect(() => pathSegment('..')).toThrow(TypeError);
  });
});
