import type { JournalRepository } from '../journal/journal.repository.js';
import type { TransitionDeps } from './transition.js';
import type { ReviewRepository } from './review.repository.js';

/** What every review use case needs: the database, the publisher, the rows and the journal. */
export interface ReviewDeps extends TransitionDeps {
  review: ReviewRepository;
  journal: JournalRepository;
}
