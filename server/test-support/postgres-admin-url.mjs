// @ts-check
/**
 * The PostgreSQL server the tests and benchmarks make their databases on: HALLMARK_TEST_PG_URL,
 * else the local server these machines run (trust auth).
 */
export const postgresAdminUrl = process.env.HALLMARK_TEST_PG_URL ?? "postgresql://postgres@127.0.0.1:5432/postgres";
