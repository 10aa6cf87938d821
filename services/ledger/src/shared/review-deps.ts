import type { BankTransferRepository } from '../bank-transfers/bank-transfer.repository.js';
import type { JournalRepository } from '../journal/journal.repository.js';
import type { TransitionDeps } from './transition.js';
import type { ReviewRepository } from './review.repository.js';

/** What every review use case needs: the database, the publisher, the rows, the journal and the money that arrived. */
export interface ReviewDeps extends TransitionDeps {
  review: ReviewRepository;
  journal: JournalRepository;
  bankTransfers: BankTransferRepository;
}
