// Row accounting for the fuzz suite: every table is read whole before and after, each row kept as
// a digest by its primary key, and each difference must be explained by the 2xx answers: rows
// added within what the successful calls insert, and rows changed or removed only in tables a
// successful call may update (what each writes is listed below). A write by a failed request, a
// new row or a changed one, fails the suite.
import Database from "better-sqlite3";
import pg from "pg";

/** The tables read, and the columns that name a row. The log's leaves are its level-0 nodes. */
const TABLES = {
  tenants: { from: "tenants", key: ["id"] },
  users: { from: "users", key: ["id"] },
  api_keys: { from: "api_keys", key: ["id"] },
  issuers: { from: "issuers", key: ["id"] },
  signing_keys: { from: "signing_keys", key: ["kid"] },
  attestations: { from: "attestations", key: ["id"] },
  leaves: { from: "log_nodes WHERE level = 0", key: ["level", "index"] },
  checkpoints: { from: "checkpoints", key: ["tree_size"] },
  log: { from: "log", key: ["id"] },
  log_shards: { from: "log_shards", key: ["shard"] },
  retired_log_keys: { from: "retired_log_keys", key: ["key_id"] },
  email_tokens: { from: "email_tokens", key: ["id"] },
  registrations: { from: "registrations", key: ["id"] },
  sessions: { from: "sessions", key: ["id"] },
  protections: { from: "protections", key: ["id"] },
  fingerprints: { from: "fingerprints", key: ["protection_id", "alg"] },
  protection_verifiers: { from: "protection_verifiers", key: ["protection_id", "tenant_id"] },
  usage_counters: { from: "usage_counters", key: ["user_id", "month"] },
  idempotency_records: { from: "idempotency_records", key: ["tenant_id", "key"] },
  verification_packs: { from: "verification_packs", key: ["id"] },
  verifications: { from: "verifications", key: ["id"] },
} as const;
export type Table = keyof typeof TABLES;
export type Counts = Record<Table, number>;
/** Each table's rows: a digest of the row's every column, by its key. */
export type Snapshot = Record<Table, Map<string, string>>;

const text = (v: unknown): string =>
  v instanceof Date ? v.toISOString() : Buffer.isBuffer(v) || v instanceof Uint8Array ? Buffer.from(v).toString("hex") : String(v);
/** A row as text, its columns in name order: equal rows of one database read equal. */
const digest = (row: Record<string, unknown>) =>
  JSON.stringify(
    Object.keys(row)
      .sort()
      .map((c) => [c, row[c] === null ? null : text(row[c])]),
  );

function keep(out: Snapshot, table: Table, rows: Record<string, unknown>[]): void {
  out[table] = new Map(rows.map((r) => [TABLES[table].key.map((k) => text(r[k])).join("|"), digest(r)]));
}

export async function snapshot(databaseUrl: string): Promise<Snapshot> {
  const out = {} as Snapshot;
  if (databaseUrl.startsWith("file:")) {
    const db = new Database(databaseUrl.slice("file:".length), { readonly: true, timeout: 5000 });
    try {
      for (const [t, { from }] of Object.entries(TABLES))
        keep(out, t as Table, db.prepare(`SELECT * FROM ${from}`).all() as Record<string, unknown>[]);
    } finally {
      db.close();
    }
    return out;
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (const [t, { from }] of Object.entries(TABLES)) keep(out, t as Table, (await client.query(`SELECT * FROM ${from}`)).rows);
  } finally {
    await client.end();
  }
  return out;
}

/**
 * What one successful call may write: rows added to a table (an exact count, or a range), and the
 * tables whose existing rows it may change or remove (`changes`).
 */
type Writes = Partial<Record<Table, number | [number, number]>> & { changes?: Table[] };

const MINT: Writes = {
  protections: 1,
  attestations: 1,
  leaves: 1,
  usage_counters: [0, 1], // the month's first mint
  idempotency_records: [0, 1], // when sent with an Idempotency-Key
  issuers: [0, 2], // the account's first mint makes its personal issuer, and the log's first sealed entry its sealing issuer…
  signing_keys: [0, 2], // …each with its key
  tenants: [0, 1], // the sealing issuer's own tenant
  fingerprints: [0, 1], // an image's PDQ hash
  changes: ["usage_counters", "idempotency_records", "log"], // the month's count, a key's record, the log's head
};
/** An organisation's attestation; the log's first sealed one makes the sealing issuer, its key and tenant. */
const ATTEST: Writes = { attestations: 1, leaves: 1, issuers: [0, 1], signing_keys: [0, 1], tenants: [0, 1], changes: ["log"] };
/** None for a verified address (the answer never says which); a stranger's earlier sign-up of the address is voided. */
const SIGNUP: Writes = { registrations: [0, 1], email_tokens: [0, 1], changes: ["registrations", "email_tokens"] };
/** A sign-up's link makes its account; an address change's link moves the account, ending its sessions and keys. */
const VERIFY_EMAIL: Writes = {
  tenants: [0, 1],
  users: [0, 1],
  changes: ["registrations", "email_tokens", "tenants", "users", "sessions", "api_keys"],
};
const TEMPLATES: Writes = { verification_packs: [0, 7] }; // a tenant's first read of its packs makes the templates
const SESSIONS: Writes = { changes: ["sessions"] };
// A new link voids the earlier one; a reset writes its row for any address (for no one, born used, when none is mailed).
const MAIL_LINK: Writes = { email_tokens: [0, 1], changes: ["email_tokens"] };
/** A pending registration's new link replaces its earlier one on the registration's row. */
const RESEND: Writes = { ...MAIL_LINK, changes: ["email_tokens", "registrations"] };
/** A reset ends every session and revokes every key (the tenant's row taken first, as key creation does); other links are voided. */
const RESET: Writes = { changes: ["email_tokens", "users", "sessions", "api_keys", "tenants"] };
const PACKS: Writes = { ...TEMPLATES, changes: ["verification_packs"] };
const VERIFICATION: Writes = {
  verifications: 1,
  protection_verifiers: [0, 1],
  ...TEMPLATES,
  changes: ["verification_packs", "protections"],
};

/** What deleting an account removes beside its user row; its tenant stays, renamed. */
const ACCOUNT_DATA: Table[] = [
  "sessions",
  "email_tokens",
  "registrations",
  "api_keys",
  "fingerprints",
  "protections",
  "protection_verifiers",
  "usage_counters",
  "idempotency_records",
];

/** REST: "METHOD template". Reads not listed write nothing. */
const REST: Record<string, Writes> = {
  "POST /v1/issuers": { issuers: 1, signing_keys: 1 },
  "POST /v1/issuers/{id}/keys": { signing_keys: 1, changes: ["signing_keys", "issuers"] },
  "POST /v1/attestations": ATTEST,
  // Up to 1,000 items, one group commit: one checkpoint for all of them (appends count calls).
  "POST /v1/attestations/batch": { ...ATTEST, attestations: [1, 1000], leaves: [1, 1000] },
  // Hallmark as a witness of other logs: what it cosigned lives in tables of its own, not read here.
  "POST /v1/witness/add-checkpoint": {},
  "POST /v1/api-keys": { api_keys: 1, changes: ["tenants"] }, // the tenant's row, locked to bound its keys
  "POST /v1/api-keys/{id}/revoke": { changes: ["api_keys", "tenants"] },
  "POST /v1/consumer/signup": SIGNUP,
  "POST /v1/consumer/resend-verification": RESEND,
  "POST /v1/consumer/verify-email": VERIFY_EMAIL,
  "POST /v1/consumer/password-reset": MAIL_LINK,
  "POST /v1/consumer/password-reset/confirm": RESET,
  "PATCH /v1/consumer/account": { changes: ["users", "tenants"] }, // a personal tenant carries its person's name
  "POST /v1/consumer/account/delete": { changes: [...ACCOUNT_DATA, "users", "tenants"] },
  // With revoke_api_keys, every key, the tenant's row taken first.
  "POST /v1/consumer/account/password": { changes: ["users", "sessions", "api_keys", "tenants"] },
  "POST /v1/consumer/account/email": { ...MAIL_LINK, changes: ["email_tokens", "registrations", "users"] },
  "POST /v1/consumer/sessions/{id}/end": SESSIONS,
  "POST /v1/consumer/sessions/end-others": SESSIONS,
  "POST /v1/consumer/login": { sessions: 1, ...SESSIONS },
  "POST /v1/consumer/logout": SESSIONS,
  "POST /v1/consumer/mint": MINT,
  // Its fingerprints' windows are written when it is made public and cleared when made private.
  "PATCH /v1/consumer/protections/{id}": { changes: ["protections", "fingerprints"] },
  "GET /v1/attestation-packs": TEMPLATES,
  "GET /v1/attestation-packs/{id}": TEMPLATES,
  "POST /v1/attestation-packs": { ...TEMPLATES, verification_packs: [1, 8] },
  "PATCH /v1/attestation-packs/{id}": PACKS,
  "POST /v1/attestation-packs/{id}/clone": { verification_packs: [1, 8] },
  "POST /v1/verifications": VERIFICATION,
  "POST /api/auth/callback/credentials": { sessions: [0, 1], ...SESSIONS },
  "POST /api/auth/signout": SESSIONS,
};

/** tRPC procedures that write; queries not listed write nothing. */
const PROCEDURES: Record<string, Writes> = {
  "apiKeys.create": REST["POST /v1/api-keys"]!,
  "apiKeys.revoke": REST["POST /v1/api-keys/{id}/revoke"]!,
  "attestations.create": ATTEST,
  "attestations.createBatch": REST["POST /v1/attestations/batch"]!,
  "witness.addCheckpoint": REST["POST /v1/witness/add-checkpoint"]!,
  "consumer.mint": MINT,
  "consumer.setVisibility": REST["PATCH /v1/consumer/protections/{id}"]!,
  "consumerAuth.signup": SIGNUP,
  "consumerAuth.verifyEmail": VERIFY_EMAIL,
  "consumerAuth.requestPasswordReset": MAIL_LINK,
  "consumerAuth.resetPassword": RESET,
  "account.rename": REST["PATCH /v1/consumer/account"]!,
  "account.delete": REST["POST /v1/consumer/account/delete"]!,
  "account.changePassword": REST["POST /v1/consumer/account/password"]!,
  "account.changeEmail": REST["POST /v1/consumer/account/email"]!,
  "account.endSession": SESSIONS,
  "account.endOtherSessions": SESSIONS,
  "consumerAuth.resendVerification": RESEND,
  "consumerAuth.login": REST["POST /v1/consumer/login"]!,
  "consumerAuth.logout": SESSIONS,
  "issuers.create": REST["POST /v1/issuers"]!,
  "issuers.rotateKey": REST["POST /v1/issuers/{id}/keys"]!,
  "packs.list": TEMPLATES,
  "packs.get": TEMPLATES,
  "packs.create": { verification_packs: [1, 8] },
  "packs.update": PACKS,
  "packs.clone": { verification_packs: [1, 8] },
  "verifications.run": VERIFICATION,
};

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

export class Ledger {
  private readonly min = {} as Counts;
  private readonly max = {} as Counts;
  /** Successful calls that append to the log (each adds one leaf; one checkpoint per batch of them). */
  private appends = 0;
  /** Which successful calls wrote to each table, for the failure message. */
  private readonly writers = new Map<Table, string[]>();
  /** The tables some successful call may have changed or removed rows of. */
  private readonly changed = new Set<Table>();
  readonly unknown: string[] = [];

  constructor() {
    for (const t of Object.keys(TABLES) as Table[]) this.min[t] = this.max[t] = 0;
  }

  private add({ changes = [], ...inserts }: Writes, by: string): void {
    for (const [t, w] of Object.entries(inserts) as [Table, number | [number, number]][]) {
      this.writers.set(t, [...(this.writers.get(t) ?? []), by]);
      const [lo, hi] = Array.isArray(w) ? w : [w, w];
      this.min[t] += lo;
      this.max[t] += hi;
    }
    for (const t of changes) {
      this.changed.add(t);
      if (!inserts[t]) this.writers.set(t, [...(this.writers.get(t) ?? []), by]);
    }
    if (inserts.leaves) this.appends += 1;
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

  /** Each table whose rows differ in a way the successful answers do not explain. */
  unexplained(before: Snapshot, after: Snapshot): string[] {
    const out: string[] = [];
    for (const t of Object.keys(TABLES) as Table[]) {
      const [was, now] = [before[t], after[t]];
      const added = [...now.keys()].filter((k) => !was.has(k)).length;
      const removed = [...was.keys()].filter((k) => !now.has(k));
      const altered = [...was.keys()].filter((k) => now.has(k) && now.get(k) !== was.get(k));
      const by = this.writers.get(t)?.join(", ") ?? "none";
      const [lo, hi] = t === "checkpoints" ? [Math.min(1, this.appends), this.appends] : [this.min[t], this.max[t]];
      if (added < lo || added > hi)
        out.push(`${t}: ${added} rows added; the 2xx answers account for ${lo === hi ? lo : `${lo} to ${hi}`} (${by})`);
      if ((removed.length || altered.length) && !this.changed.has(t))
        out.push(
          `${t}: ${altered.length} rows changed and ${removed.length} removed (${[...altered, ...removed].slice(0, 3).join(", ")}), and no 2xx answer changes its rows (${by})`,
        );
    }
    return out;
  }
}
