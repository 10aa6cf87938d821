/**
 * A statement with known truth for the statements benchmark: which deposits to create (through the partner API)
 * and, once their reference numbers are known, the CSV statement lines paying them, each line tagged with what it
 * is meant to be (clean, near reference, wrong amount, split, late, duplicate, other sender, unknown).
 */
import { isValidReferenceNo } from '../../services/ledger/src/site-records/reference-no.js';

export const KINDS = ['clean', 'near', 'less', 'more', 'split', 'late', 'duplicate', 'other_sender', 'unknown'] as const;
export type Kind = (typeof KINDS)[number];

/** Share of a statement's lines per kind (sums to 1). A split deposit takes two lines; a duplicate repeats a clean line. */
const SHARES: Record<Kind, number> = {
  clean: 0.6,
  near: 0.1,
  less: 0.04,
  more: 0.04,
  split: 0.06,
  late: 0.03,
  duplicate: 0.05,
  other_sender: 0.04,
  unknown: 0.04,
};

const FIRST = ['Ayşe', 'Mehmet', 'Fatma', 'Mustafa', 'Zeynep', 'Emre', 'Elif', 'Burak', 'Merve', 'Hakan', 'Selin', 'Oğuz'];
const LAST = ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Yıldız', 'Aydın', 'Öztürk', 'Arslan', 'Doğan', 'Kılıç', 'Koç'];
/** Senders sharing no word with any label above (and not one edit from one). */
const STRANGERS = ['VEYSEL BARANSU', 'NURHAN TEKİNALP', 'İLKNUR GÜVENSOY', 'CAVİT ERDEMLİOĞLU'];

export interface PlannedDeposit {
  /** Index in the plan; the deposit's truth is its kind. */
  index: number;
  kind: Exclude<Kind, 'duplicate'>;
  amount: bigint;
  label: string;
}

export interface CreatedDeposit extends PlannedDeposit {
  intentId: string;
  referenceNo: string;
}

export interface PlannedLine {
  kind: Kind;
  bankTxId: string;
  amount: bigint;
  senderName: string;
  description: string;
  receivedAt: Date;
  /** The deposit the line pays (null: no deposit, `unknown`). */
  intentId: string | null;
}

/** How many lines of each kind a statement of `lines` lines has (rounding goes to `clean`). */
export function lineCounts(lines: number): Record<Kind, number> {
  const counts = Object.fromEntries(KINDS.map((kind) => [kind, Math.floor(lines * SHARES[kind])])) as Record<Kind, number>;
  counts.split -= counts.split % 2; // two lines per split deposit
  counts.clean += lines - KINDS.reduce((sum, kind) => sum + counts[kind], 0);
  return counts;
}

/** The deposits a statement of `lines` lines pays; `unknown` lines pay none, duplicates repeat clean lines. */
export function planDeposits(lines: number): PlannedDeposit[] {
  const counts = lineCounts(lines);
  const out: PlannedDeposit[] = [];
  const add = (kind: PlannedDeposit['kind'], n: number) => {
    for (let i = 0; i < n; i += 1) {
      const index = out.length;
      // 150.00 to 4,999.50 TL in 50-kuruş steps, spread over the plan.
      const amount = 15_000n + BigInt((index * 7919) % 9_700) * 50n;
      out.push({ index, kind, amount, label: `${FIRST[index % FIRST.length]} ${LAST[Math.floor(index / FIRST.length) % LAST.length]}` });
    }
  };
  add('clean', counts.clean);
  add('near', counts.near);
  add('less', counts.less);
  add('more', counts.more);
  add('split', counts.split / 2);
  add('late', counts.late);
  add('other_sender', counts.other_sender);
  return out;
}

const ALPHABET = '23456789ABCDEFGHJKMNPQRSTUVWXYZ';
const TURKISH_FOR: Record<string, string> = { S: 'Ş', G: 'Ğ', U: 'Ü', C: 'Ç' };

/**
 * `reference` one character off, in one of the ways matching.ts corrects: a changed character, two neighbours
 * swapped, a dropped or an added character, or a Turkish letter typed for its Latin one. Never a valid reference
 * itself (that would be an exact match of another number). `seed` picks the way and the place.
 */
export function nearReference(reference: string, seed: number): string {
  const body = reference.slice(2);
  for (let attempt = 0; attempt < 40; attempt += 1) {
    const way = (seed + attempt) % 5;
    const at = 2 + ((seed * 7 + attempt * 3) % (body.length - 1)); // 2..10 within the reference (never the prefix)
    const char = reference[at] as string;
    let out: string;
    if (way === 0) {
      const other = ALPHABET[(ALPHABET.indexOf(char) + 1 + (seed % 29)) % ALPHABET.length] as string;
      out = reference.slice(0, at) + other + reference.slice(at + 1);
    } else if (way === 1) {
      const next = reference[at + 1];
      if (next === undefined || next === char) continue;
      out = reference.slice(0, at) + next + char + reference.slice(at + 2);
    } else if (way === 2) {
      out = reference.slice(0, at) + reference.slice(at + 1);
    } else if (way === 3) {
      // Inserted before the check character, so the first ten characters are not the reference itself.
      const at9 = Math.min(at, 9);
      out = reference.slice(0, at9) + (ALPHABET[(seed * 13) % ALPHABET.length] as string) + reference.slice(at9);
      if (isValidReferenceNo(out.slice(0, 10))) continue;
    } else {
      const index = [...reference].findIndex((c, i) => i >= 2 && TURKISH_FOR[c] !== undefined);
      if (index === -1) continue;
      out = reference.slice(0, index) + TURKISH_FOR[reference[index] as string] + reference.slice(index + 1);
    }
    if (!isValidReferenceNo(out) && out !== reference) return out;
  }
  throw new Error(`no near form of ${reference}`);
}

/** The statement lines paying `deposits` and `unknown` lines naming no deposit, in a shuffled but reproducible order, with duplicates repeating clean lines. */
export function planLines(prefix: string, unknown: number, deposits: CreatedDeposit[], now: Date): PlannedLine[] {
  const out: PlannedLine[] = [];
  let sequence = 0;
  const txId = () => `${prefix}${String((sequence += 1)).padStart(6, '0')}`;
  const onTime = new Date(now.getTime() - 60_000);
  // The deposits expire 30 minutes after creation: three hours on, any line is late.
  const late = new Date(now.getTime() + 3 * 3_600_000);
  for (const deposit of deposits) {
    const sender = deposit.label.toLocaleUpperCase('tr-TR');
    const line = (amount: bigint, description: string, extra: Partial<PlannedLine> = {}): PlannedLine => ({
      kind: deposit.kind,
      bankTxId: txId(),
      amount,
      senderName: sender,
      description,
      receivedAt: onTime,
      intentId: deposit.intentId,
      ...extra,
    });
    const exact = `HAVALE ${deposit.referenceNo} yatırım`;
    switch (deposit.kind) {
      case 'clean':
        out.push(line(deposit.amount, exact));
        break;
      case 'near':
        out.push(line(deposit.amount, `Yatırım ${nearReference(deposit.referenceNo, deposit.index)}`));
        break;
      case 'less':
        out.push(line(deposit.amount - 1_000n, exact));
        break;
      case 'more':
        out.push(line(deposit.amount + 1_000n, exact));
        break;
      case 'split': {
        const half = deposit.amount / 2n;
        out.push(line(half, exact), line(deposit.amount - half, exact));
        break;
      }
      case 'late':
        out.push(line(deposit.amount, exact, { receivedAt: late }));
        break;
      case 'other_sender':
        out.push(line(deposit.amount, exact, { senderName: STRANGERS[deposit.index % STRANGERS.length] as string }));
        break;
    }
  }
  for (let i = 0; i < unknown; i += 1) {
    out.push({
      kind: 'unknown',
      bankTxId: txId(),
      amount: 10_000n + BigInt(i) * 25n,
      senderName: STRANGERS[i % STRANGERS.length] as string,
      description: `Kira ödemesi ${i}`,
      receivedAt: onTime,
      intentId: null,
    });
  }
  // Deterministic shuffle (LCG), so kinds are interleaved as in a real statement.
  let state = out.length;
  for (let i = out.length - 1; i > 0; i -= 1) {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    const j = state % (i + 1);
    [out[i], out[j]] = [out[j] as PlannedLine, out[i] as PlannedLine];
  }
  return out;
}

const lira = (kurus: bigint) => `${kurus / 100n}.${String(kurus % 100n).padStart(2, '0')}`;
const quote = (text: string) => (/[",\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text);

/**
 * A CSV statement file (docs/statements.md, The CSV layout) of two overlapping statements of the account: the
 * second repeats the last `overlap` lines of the first (the duplicates), as a bank's day statements overlap.
 */
export function statementCsv(iban: string, reference: string, lines: PlannedLine[], overlap: number): string {
  const split = lines.length - Math.floor((lines.length - overlap) / 2);
  const first = lines.slice(0, split);
  const second = [...lines.slice(split - overlap, split).map((line) => ({ ...line, kind: 'duplicate' as const })), ...lines.slice(split)];
  const rows = [
    'account_iban,statement_id,booked_at,direction,amount,currency,bank_tx_id,counterparty_name,counterparty_iban,description,end_to_end_id',
  ];
  let balance = 1_000_000n;
  for (const [n, part] of [first, second].entries()) {
    const id = `${reference}-${n + 1}`;
    const times = part.map((line) => line.receivedAt.getTime());
    const from = new Date(Math.min(...times)).toISOString();
    const to = new Date(Math.max(...times)).toISOString();
    if (n === 1) balance -= second.slice(0, overlap).reduce((sum, line) => sum + line.amount, 0n);
    rows.push(`${iban},${id},${from},opening,${lira(balance)},TRY,,,,,`);
    for (const line of part) {
      balance += line.amount;
      rows.push(
        [
          iban,
          id,
          line.receivedAt.toISOString(),
          'credit',
          lira(line.amount),
          'TRY',
          line.bankTxId,
          quote(line.senderName),
          '',
          quote(line.description),
          '',
        ].join(','),
      );
    }
    rows.push(`${iban},${id},${to},closing,${lira(balance)},TRY,,,,,`);
  }
  return `${rows.join('\n')}\n`;
}
