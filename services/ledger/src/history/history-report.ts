import type { HistorySource } from './history-hash.js';

/** What the walk of the hash chains and seals finds (verify-history.use-case.ts), as the journal check and the ops API report it. */

export interface HistoryProblem {
  /**
   * - `row_changed`: the row is not what was linked (a column edited, two rows' contents swapped);
   * - `row_deleted`: a linked row is gone;
   * - `link_changed`: a link's hash does not follow from the one before it (a link edited or moved);
   * - `link_missing`: links are missing inside a chain;
   * - `head_mismatch`: the chain does not end where its head says (links removed at its end, or the head rewritten);
   * - `row_unlinked`: a row sorts before rows already linked but no link names it (written behind the chain);
   * - `seal_signature_invalid`: a day's seal does not verify with a trusted public key, or its row differs from what was
   *   signed (`reason` says which);
   * - `seal_mismatch`: a sealed head (chain, seq, hash) is no longer in the chain: the chain was rewritten after the day
   *   was sealed, somewhere from `fromSeq` (after the previous seal's head of the chain) to `seq`;
   * - `seal_missing`: a day without a seal while later days are sealed, or a seal that does not follow the one before.
   */
  problem:
    | 'row_changed'
    | 'row_deleted'
    | 'link_changed'
    | 'link_missing'
    | 'head_mismatch'
    | 'row_unlinked'
    | 'seal_signature_invalid'
    | 'seal_mismatch'
    | 'seal_missing';
  /** The table the chain is over, or `seal` for a problem of the seals' own chain. */
  source: HistorySource | 'seal';
  chain: string | null;
  seq: string | null;
  rowId: string | null;
  /** The Istanbul day of the seal concerned. */
  day?: string;
  /** seal_mismatch: the first place the rewrite may start at. */
  fromSeq?: string;
  /** seal_signature_invalid, seal_missing: what is wrong, in words. */
  reason?: string;
}

export interface HistoryReport {
  ok: boolean;
  chains: number;
  links: number;
  /** Seals checked. */
  seals: number;
  problemCount: number;
  problems: HistoryProblem[];
}
