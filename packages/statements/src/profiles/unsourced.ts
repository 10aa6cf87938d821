/**
 * The banks Kasa was asked to read and found no public source for: no format guide, sample statement or parser of
 * their MT940 or camt.053 showing where the sender's name or IBAN stand. Their statements get the generic Turkish
 * reading (tr-generic.profile.ts) until a source is found; a layout is never guessed. docs/statements.md lists them.
 */
export const UNSOURCED_BANKS: ReadonlyArray<{ bank: string; bankCode: string }> = [
  { bank: 'Garanti BBVA', bankCode: '00062' },
  { bank: 'Türkiye İş Bankası', bankCode: '00064' },
  { bank: 'Yapı Kredi', bankCode: '00067' },
  { bank: 'Akbank', bankCode: '00046' },
  { bank: 'VakıfBank', bankCode: '00015' },
  { bank: 'Halkbank', bankCode: '00012' },
  { bank: 'QNB', bankCode: '00111' },
  { bank: 'DenizBank', bankCode: '00134' },
  { bank: 'Kuveyt Türk', bankCode: '00205' },
];
