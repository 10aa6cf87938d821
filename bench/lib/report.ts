/** The markdown section of docs/benchmarks.md, replaced between its markers and nowhere else. */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export const START_MARKER = '<!-- partner-api:start -->';
export const END_MARKER = '<!-- partner-api:end -->';

/** Replaces the text between the markers, creating the file or appending the markers when missing. */
export function writeSection(path: string, body: string): void {
  const section = `${START_MARKER}\n${body.trim()}\n${END_MARKER}`;
  if (!existsSync(path)) {
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, `# Benchmarks\n\n## Partner API\n\n${section}\n`);
    return;
  }
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(START_MARKER);
  const end = text.indexOf(END_MARKER);
  if (start !== -1 && end > start) {
    writeFileSync(path, text.slice(0, start) + section + text.slice(end + END_MARKER.length));
    return;
  }
  if (start !== -1 || end !== -1) throw new Error(`${path}: only one of the partner-api markers is present; fix it by hand`);
  writeFileSync(path, `${text.replace(/\s*$/, '')}\n\n## Partner API\n\n${section}\n`);
}

export const fmt = (value: number, digits = 0) =>
  Number.isFinite(value) ? value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';

export const passFail = (ok: boolean) => (ok ? '**pass**' : '**FAIL**');

/** The p-th percentile of ascending `sorted` (nearest rank); NaN when there is nothing. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] as number;
}
