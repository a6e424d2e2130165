// Row accounting for the fuzz suite: every table is counted before and after, and each change
// must be explained by the 2xx answers (what each successful call writes is listed below). A
// row no successful answer accounts for, a write by a failed request, fails the suite.
import Database from "better-sqlite3";
import pg from "pg";

/** Counted "tables": the log's leaves are its level-0 nodes. */
const COUNTS = {
  tenants: "SELECT count(*) AS n FROM tenants",
  users: "SELECT count(*) AS n FROM users",
  api_keys: "SELECT count(*) AS n FROM api_keys",
  issuers: "SELECT count(*) AS n FROM issuers",
  signing_keys: "SELECT count(*) AS n FROM signing_keys",
  attestations: "SELECT count(*) AS n FROM attestations",
  leaves: "SELECT count(*) AS n FROM log_nodes WHERE level = 0",
  checkpoints: "SELECT count(*) AS n FROM checkpoints",
  log: "SELECT count(*) AS n FROM log",
  email_tokens: "SELECT count(*) AS n FROM email_tokens",
  registrations: "SELECT count(*) AS n FROM registrations",
  sessions: "SELECT count(*) AS n FROM sessions",
  protections: "SELECT count(*) AS n FROM protections",
  usage_counters: "SELECT count(*) AS n FROM usage_counters",
  idempotency_records: "SELECT count(*) AS n FROM idempotency_records",
  verification_packs: "SELECT count(*) AS n FROM verification_packs",
  verifications: "SELECT count(*) AS n FROM verifications",
} as const;
export type Table = keyof typeof COUNTS;
export type Counts = Record<Table, number>;

export async function countRows(databaseUrl: string): Promise<Counts> {
  const out = {} as Counts;
  if (databaseUrl.startsWith("file:")) {
    const db = new Database(databaseUrl.slice("file:".length), { readonly: true, timeout: 5000 });
    try {
      for (const [t, sql] of Object.entries(COUNTS)) out[t as Table] = Number((db.prepare(sql).get() as { n: number }).n);
    } finally {
      db.close();
    }
    return out;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const [t, sql] of Object.entries(COUNTS)) out[t as Table] = Number((await client.query(sql)).rows[0].n);
  } finally {
    await client.end();
  }
  return out;
}

/** What one successful call may write: an exact count, or a range. */
type Writes = Partial<Record<Table, number | [number, number]>>;

const MINT: Writes = {
  protections: 1,
  attestations: 1,
  leaves: 1,
  usage_counters: [0, 1], // the month's first mint
  idempotency_records: [0, 1], // when sent with an Idempotency-Key
  issuers: [0, 2], // the account's first mint makes its personal issuer, and the log's first sealed entry its sealing issuer…
  signing_keys: [0, 2], // …each with its key
  tenants: [0, 1], // the sealing issuer's own tenant
};
/** An organisation's attestation; the log's first sealed one makes the sealing issuer, its key and tenant. */
const ATTEST: Writes = { attestations: 1, leaves: 1, issuers: [0, 1], signing_keys: [0, 1], tenants: [0, 1] };
const SIGNUP: Writes = { registrations: [0, 1] }; // none for a verified address: the answer never says which
const VERIFY_EMAIL: Writes = { tenants: [0, 1], users: [0, 1] }; // a sign-up's link makes its account
const TEMPLATES: Writes = { verification_packs: [0, 7] }; // a tenant's first read of its packs makes the templates

/** REST: "METHOD template". Reads not listed write nothing. */
const REST: Record<string, Writes> = {
  "POST /v1/issuers": { issuers: 1, signing_keys: 1 },
  "POST /v1/issuers/{id}/keys": { signing_keys: 1 },
  "POST /v1/attestations": ATTEST,
  "POST /v1/api-keys": { api_keys: 1 },
  "POST /v1/api-keys/{id}/revoke": {},
  "POST /v1/consumer/signup": SIGNUP,
  "POST /v1/consumer/resend-verification": { email_tokens: [0, 1] },
  "POST /v1/consumer/verify-email": VERIFY_EMAIL,
  "POST /v1/consumer/password-reset": { email_tokens: [0, 1] },
  "POST /v1/consumer/password-reset/confirm": {},
  "PATCH /v1/consumer/account": {},
  "POST /v1/consumer/account/password": {},
  "POST /v1/consumer/account/email": { email_tokens: [0, 1] },
  "POST /v1/consumer/sessions/{id}/end": {},
  "POST /v1/consumer/sessions/end-others": {},
  "POST /v1/consumer/login": { sessions: 1 },
  "POST /v1/consumer/logout": {},
  "POST /v1/consumer/mint": MINT,
  "PATCH /v1/consumer/protections/{id}": {},
  "GET /v1/attestation-packs": TEMPLATES,
  "GET /v1/attestation-packs/{id}": TEMPLATES,
  "POST /v1/attestation-packs": { ...TEMPLATES, verification_packs: [1, 8] },
  "PATCH /v1/attestation-packs/{id}": TEMPLATES,
  "POST /v1/attestation-packs/{id}/clone": { verification_packs: [1, 8] },
  "POST /v1/verifications": { verifications: 1, ...TEMPLATES },
  "POST /api/auth/callback/credentials": { sessions: [0, 1] },
  "POST /api/auth/signout": {},
};

/** tRPC procedures that write; queries not listed write nothing. */
const PROCEDURES: Record<string, Writes> = {
  "apiKeys.create": { api_keys: 1 },
  "apiKeys.revoke": {},
  "attestations.create": ATTEST,
  "consumer.mint": MINT,
  "consumer.setVisibility": {},
  "consumerAuth.signup": SIGNUP,
  "consumerAuth.verifyEmail": VERIFY_EMAIL,
  "consumerAuth.requestPasswordReset": { email_tokens: [0, 1] },
  "consumerAuth.resetPassword": {},
  "account.rename": {},
  "account.changePassword": {},
  "account.changeEmail": { email_tokens: [0, 1] },
  "account.endSession": {},
  "account.endOtherSessions": {},
  "consumerAuth.resendVerification": { email_tokens: [0, 1] },
  "consumerAuth.login": { sessions: 1 },
  "consumerAuth.logout": {},
  "issuers.create": { issuers: 1, signing_keys: 1 },
  "issuers.rotateKey": { signing_keys: 1 },
  "packs.list": TEMPLATES,
  "packs.get": TEMPLATES,
  "packs.create": { verification_packs: [1, 8] },
  "packs.update": TEMPLATES,
  "packs.clone": { verification_packs: [1, 8] },
  "verifications.run": { verifications: 1, ...TEMPLATES },
};

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export class Ledger {
  private readonly min = {} as Counts;
  private readonly max = {} as Counts;
  /** Successful calls that append to the log (each adds one leaf; one checkpoint per batch of them). */
  private appends = 0;
  /** Which successful calls wrote to each table, for the failure message. */
  private readonly writers = new Map<Table, string[]>();
  readonly unknown: string[] = [];

  constructor() {
    for (const t of Object.keys(COUNTS) as Table[]) this.min[t] = this.max[t] = 0;
  }

  private add(writes: Writes, by: string): void {
    for (const [t, w] of Object.entries(writes) as [Table, number | [number, number]][]) {
      this.writers.set(t, [...(this.writers.get(t) ?? []), by]);
      const [lo, hi] = Array.isArray(w) ? w : [w, w];
      this.min[t] += lo;
      this.max[t] += hi;
    }
    if (writes.leaves) this.appends += 1;
  }

  /** A 2xx REST answer (`replayed`: an idempotent replay, which writes nothing). */
  rest(method: string, template: string, replayed: boolean): void {
    const writes = REST[`${method} ${template}`];
    if (writes) {
      if (!replayed) this.add(writes, `${method} ${template}`);
      return;
    }
    if (!SAFE.has(method)) this.unknown.push(`${method} ${template} answered 2xx; the ledger does not know what it writes`);
  }

  /** A tRPC call that returned a result. */
  procedure(path: string, type: "query" | "mutation"): void {
    const writes = PROCEDURES[path];
    if (writes) {
      this.add(writes, `tRPC ${path}`);
      return;
    }
    if (type === "mutation") this.unknown.push(`tRPC ${path} succeeded; the ledger does not know what it writes`);
  }

  /** Each table whose change the successful answers do not explain. */
  unexplained(before: Counts, after: Counts): string[] {
    const out: string[] = [];
    for (const t of Object.keys(COUNTS) as Table[]) {
      const delta = after[t] - before[t];
      const [lo, hi] = t === "checkpoints" ? [Math.min(1, this.appends), this.appends] : [this.min[t], this.max[t]];
      if (delta < lo || delta > hi) {
        const by = this.writers.get(t)?.join(", ") ?? "none";
        out.push(
          `${t}: ${before[t]} → ${after[t]} (${delta >= 0 ? "+" : ""}${delta}); the 2xx answers account for ${lo === hi ? lo : `${lo} to ${hi}`} (${by})`,
        );
      }
    }
    return out;
  }
}
