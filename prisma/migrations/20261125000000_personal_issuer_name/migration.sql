-- A consumer's personal issuer is named for what it is, not for its account: the issuer travels
-- in public proof bundles and pages, also those of private protections, which must not name
-- their creator.
UPDATE "issuers" SET "name" = 'Hallmark personal issuer' WHERE "personal_for" IS NOT NULL;
