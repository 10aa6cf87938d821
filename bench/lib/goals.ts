/**
 * The goal table every section of docs/benchmarks.md ends with: what is judged, the target's figure, the floor measured
 * in the same run (the least the same work costs without Kasa: a bare server, a plain loop, bare SQL), their ratio and
 * PASS/FAIL. A goal with no floor of its own (a count, a correctness check) leaves those cells empty.
 */
import { passFail } from './report.js';

export interface Goal {
  /** What is judged and the target, in words: "rows/s >= 25% of the floor's". */
  goal: string;
  /** Kasa's figure, as shown. */
  measured: string;
  /** The floor's figure in the same run, as shown; omitted when the goal has none. */
  floor?: string;
  /** measured / floor (or floor / measured, whichever the goal reads as "of the floor"), as shown. */
  ratio?: string;
  met: boolean;
}

/** `value` as a share of `floor`, `37%`; `n/a` when either is not a positive finite number. */
export function percentOf(value: number, floor: number): string {
  if (!Number.isFinite(value) || !Number.isFinite(floor) || floor <= 0 || value < 0) return 'n/a';
  const share = (value / floor) * 100;
  return `${share < 10 ? share.toFixed(1) : Math.round(share).toLocaleString('en-US')}%`;
}

/** `value` as a multiple of `floor`, `2.4x`; `n/a` when either is not a positive finite number. */
export function timesOf(value: number, floor: number): string {
  if (!Number.isFinite(value) || !Number.isFinite(floor) || floor <= 0 || value < 0) return 'n/a';
  const times = value / floor;
  return `${times < 10 ? times.toFixed(times < 1 ? 2 : 1) : Math.round(times).toLocaleString('en-US')}x`;
}

/**
 * The values of the rounds as one cell: `812` when they agree, `790–834` (low to high) otherwise, each formatted by
 * `format`; `n/a` when there are none.
 */
export function rangeOf(values: readonly number[], format: (value: number) => string): string {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0) return 'n/a';
  const low = format(Math.min(...finite));
  const high = format(Math.max(...finite));
  return low === high ? low : `${low}–${high}`;
}

/** The Markdown goal table (Prettier aligns it when the section is written); the floor columns only when a goal has a floor. */
export function goalTable(goals: readonly Goal[], heading = 'Goal'): string {
  if (goals.length === 0) throw new Error('a goal table needs at least one goal');
  const withFloor = goals.some((goal) => goal.floor !== undefined || goal.ratio !== undefined);
  const cell = (text: string | undefined) => (text ?? '').replaceAll('|', '\\|');
  const header = withFloor ? `| ${heading} | Measured | Floor | Ratio | Result |` : `| ${heading} | Measured | Result |`;
  const rule = withFloor ? '|---|---:|---:|---:|---|' : '|---|---:|---|';
  const rows = goals.map((goal) =>
    withFloor
      ? `| ${cell(goal.goal)} | ${cell(goal.measured)} | ${cell(goal.floor)} | ${cell(goal.ratio)} | ${passFail(goal.met)} |`
      : `| ${cell(goal.goal)} | ${cell(goal.measured)} | ${passFail(goal.met)} |`,
  );
  return [header, rule, ...rows].join('\n');
}

/** One line under the table: how many goals were met, so a reader of the section's end sees it at once. */
export function goalVerdict(goals: readonly Goal[]): string {
  const missed = goals.filter((goal) => !goal.met).length;
  return missed === 0
    ? `All ${goals.length} goals met; figures as measured, nothing tuned away.`
    : `${missed} of ${goals.length} goals missed (the FAIL rows); figures as measured, nothing tuned away.`;
}
