/** How people see money: Turkish grouping and decimal comma on every surface, computed on bigint. */

function parts(minor: bigint | string): { sign: string; lira: bigint; kurus: string } | null {
  let value: bigint;
  if (typeof minor === 'bigint') value = minor;
  else if (/^-?\d{1,40}$/.test(minor)) value = BigInt(minor);
  else return null;
  const abs = value < 0n ? -value : value;
  return { sign: value < 0n ? '-' : '', lira: abs / 100n, kurus: (abs % 100n).toString().padStart(2, '0') };
}

const group = (lira: bigint): string => lira.toString().replace(/\B(?=(\d{3})+(?!\d))/g, '.');

/** 150000 -> "1.500,00" (no currency mark), for tables whose header names the currency. "" when not an amount. */
export function formatLira(minor: bigint | string | null | undefined): string {
  const p = minor === null || minor === undefined ? null : parts(minor);
  return p ? `${p.sign}${group(p.lira)},${p.kurus}` : '';
}

/** 150000 -> "1.500,00 ₺"; "—" when there is no amount. */
export function formatTry(minor: bigint | string | null | undefined): string {
  const text = formatLira(minor);
  return text ? `${text} ₺` : '—';
}

/**
 * 150000 -> "1500,00": the plain form an input field shows and a bank's transfer form takes. It reads back
 * through parseLira to the same amount.
 */
export function liraInputValue(minor: bigint | string | null | undefined): string {
  const p = minor === null || minor === undefined ? null : parts(minor);
  return p ? `${p.sign}${p.lira},${p.kurus}` : '';
}
