-- Four-eyes approval (docs/operations.md, Four-eyes): above a threshold a payout needs two different operators.
-- A site's own threshold (kuruş; null: the service's DUAL_APPROVAL_ABOVE_KURUS), and on each payout the approvals
-- given so far, [{operatorId, email, at}], oldest first.

-- AlterTable
ALTER TABLE "sites" ADD COLUMN "dual_approval_above" BIGINT;

-- AlterTable
ALTER TABLE "withdrawals" ADD COLUMN "approvals" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "sender_returns" ADD COLUMN "approvals" JSONB NOT NULL DEFAULT '[]';
