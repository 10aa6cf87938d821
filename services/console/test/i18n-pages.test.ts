/** The Turkish-page check other tests use: what it counts as visible text and which English words it finds. */
import { describe, expect, it } from '@jest/globals';
import { englishLeftovers, expectTurkish, visibleText } from './i18n-pages.js';

describe('the Turkish page check', () => {
  it('reads only the visible text: no tags, scripts, styles or comments; entities decoded', () => {
    const page =
      '<html><head><style>a { color: red } /* the */</style><script>const forTheWin = "the";</script></head>' +
      '<body><!-- the --><h1 title="the title">Yatırımlar</h1><p>Tutar&nbsp;&amp;&#39;1.500,00 ₺&#x27;</p></body></html>';
    expect(visibleText(page)).toBe("Yatırımlar Tutar &'1.500,00 ₺'");
    expect(expectTurkish(page)).toBe("Yatırımlar Tutar &'1.500,00 ₺'");
  });

  it('leaves out what the page marks as English, however deeply nested', () => {
    const page =
      '<header><a href="/language?to=en" lang="en">English</a></header><main><h2>Defter servisinin yanıtı:</h2>' +
      '<div lang="en"><p>The credit <div>is more than the <b>money</b></div> received</p><br lang="en"></div>' +
      '<p lang="en-GB">Colour of the sky</p><p lang="tr">Tutar</p><input lang="en" value="x"><p>Onaylandı</p></main>';
    expect(visibleText(page)).toBe('Defter servisinin yanıtı: Tutar Onaylandı');
    // Marked in another language, or not at all: the words count.
    expect(() => expectTurkish('<p lang="de">the</p>')).toThrow(/"the"/);
    expect(() => expectTurkish('<p lang="english">the</p>')).toThrow(/"the"/);
    // A whole document in English is not a Turkish page, whatever its text.
    expect(() => expectTurkish('<!doctype html><html lang="en"><body><p>Tamam</p></body></html>')).toThrow(/says it is in "en"/);
    expect(expectTurkish('<!doctype html><html lang="tr"><body><p>Tamam</p><a lang="en">English</a></body></html>')).toBe('Tamam');
  });

  it('finds each English stopword as a whole word, in any case, and says where', () => {
    expect(englishLeftovers('Approve THE deposit and go')).toEqual([
      '"THE" in "…Approve THE deposit and go…"',
      '"and" in "…Approve THE deposit and go…"',
    ]);
    expect(() => expectTurkish('<p>Back to <b>the</b> list</p>')).toThrow(/"to" in .*\n.*"the" in/);
    expect(() => expectTurkish('<p>Limit for sites, with care; Your turn. It is</p>')).toThrow(
      /"for"[\s\S]*"with"[\s\S]*"Your"[\s\S]*"is"/,
    );
  });

  it('passes Turkish words that hold a stopword inside them', () => {
    // "Tüm", "İstanbul", "Tofu", "theme", "işlemlerinizin" and "sandık" hold no whole stopword.
    expect(englishLeftovers('Tüm İstanbul theme tofu işlemlerinizin sandık office isim')).toEqual([]);
    expect(englishLeftovers('Ödeme-to')).toEqual(['"to" in "…Ödeme-to…"']);
  });
});
