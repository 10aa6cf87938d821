import pg from 'pg';
import { journalChain } from '../../services/ledger/src/history/history-hash.js';
import { HISTORY_CHAINS_LOCK } from '../../services/ledger/src/history/history.repository.js';

/**
 * Removes a bench floor's site from the journal, with its hash chain (docs/compliance.md, Tamper-evident history), so
 * the journal check after the run sees Kasa's rows alone and no chain with a hole in it: the site's journal entries, its
 * chain's links and head, in one transaction holding the chains' lock, so the ledger's history worker neither links a
 * row being removed nor runs meanwhile.
 */
export async function clearSiteJournal(pool: pg.Pool | pg.Client, siteId: string): Promise<void> {
  const client = pool instanceof pg.Pool ? await pool.connect() : null;
  const db = client ?? (pool as pg.Client);
  try {
    await db.query('BEGIN');
    await db.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [HISTORY_CHAINS_LOCK]);
    await db.query('DELETE FROM journal_entries WHERE site_id = $1::uuid', [siteId]);
    await db.query('DELETE FROM history_links WHERE chain = $1', [journalChain(siteId)]);
    await db.query('DELETE FROM history_heads WHERE chain = $1', [journalChain(siteId)]);
    await db.query('COMMIT');
  } catch (error) {
    await db.query('ROLLBACK').catch(() => undefined);
    throw error;
  } finally {
    client?.release();
  }
}
