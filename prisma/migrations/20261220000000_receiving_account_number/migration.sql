-- Banks name the account of a statement by its IBAN, or by their own account number, often behind a bank and branch
-- code (MT940 `:25:0067-00763/93984487`, camt.053 `Acct/Id/Othr/Id`). A receiving account may carry that number and
-- its branch code, so the import recognises such a statement as the account's (docs/statements.md, "Whose statement").

-- AlterTable
ALTER TABLE "receiving_bank_accounts" ADD COLUMN "account_number" VARCHAR(20),
ADD COLUMN "branch_code" VARCHAR(5);
