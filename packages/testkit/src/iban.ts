/** A valid TR IBAN for tests, derived from a number so each test can make its own (mod-97 computed). */
export function makeTrIban(seed: number): string {
  const bban = `00061${String(seed).padStart(17, '0')}`;
  // Move "TR00" to the end, letters to numbers (T=29, R=27), then 98 - (n mod 97).
  const numeric = `${bban}292700`;
  let remainder = 0;
  for (const digit of numeric) remainder = (remainder * 10 + Number(digit)) % 97;
  const check = String(98 - remainder).padStart(2, '0');
  return `TR${check}${bban}`;
}
