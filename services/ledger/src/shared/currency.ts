/**
 * A record's currency as the contracts type it: Kasa books TRY only (every money table's `currency` defaults to it
 * and nothing writes another), so any other value is a broken record and fails loudly rather than being shown.
 */
export function bookedCurrency(currency: string): 'TRY' {
  if (currency !== 'TRY') throw new Error(`a record booked in ${JSON.stringify(currency)}: Kasa books TRY only`);
  return currency;
}
