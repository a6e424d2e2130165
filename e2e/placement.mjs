// @ts-check
// Where a REST test file runs, as the file itself declares it in its leading comment block:
//
//   // @hallmark-test db=sqlite,postgres lane=main
//
//   db=       the databases whose run includes the file: sqlite, postgres, or both (comma-separated)
//   lane=     main           the main lane, on the setting's first server
//             side-<name>    a side lane beside the main one, on the same server; its files append
//                            nothing to that server's log (main-lane tests count its size), which
//                            the REST client checks for the appends it sends (e2e/api/helpers.ts)
//             second-server  the second server's lane (setting "<db>-b": its own database, log,
//                            witnesses and mail), beside all of the above
//             alone          after every other lane of the setting, one file at a time
//   witnessing (a bare word) the file's subject is witnessing: the REST client's retry of a
//                            503 not_yet_witnessed fails the test that needed it
//
// scripts/test.mjs reads every file's declaration from its text (nothing is executed) and fails
// the run, before it builds or starts anything, for a file without one, with two, or with a word
// it does not know. There is no default: a file's place is a decision its author states.

/** @typedef {"sqlite" | "postgres"} Db */
/**
 * @typedef {object} Placement
 * @property {Db[]} db the databases whose run includes the file
 * @property {string} lane "main", "alone", "second-server" or "side-<name>"
 * @property {boolean} witnessing its subject is witnessing (no 503 not_yet_witnessed retries)
 */

const PRAGMA = "@hallmark-test";
const DBS = /** @type {const} */ (["sqlite", "postgres"]);
const LANE = /^(main|alone|second-server|side-[a-z0-9]+(-[a-z0-9]+)*)$/;

/**
 * The declaration in a test file's text. Throws, saying what is wrong, when there is none in the
 * leading comment block, more than one, or one with a missing, unknown or repeated word.
 * @param {string} text the file's text
 * @returns {Placement}
 */
export function parsePlacement(text) {
  /** @type {string[]} */
  const found = [];
  for (const line of text.split("\n")) {
    const t = line.trim();
    if (t === "") continue;
    if (!t.startsWith("//")) break;
    const body = t.slice(2).trim();
    if (body === PRAGMA || body.startsWith(`${PRAGMA} `)) found.push(body.slice(PRAGMA.length).trim());
  }
  if (found.length === 0) throw new Error(`no "// ${PRAGMA} db=… lane=…" line in its leading comments`);
  if (found.length > 1) throw new Error(`${found.length} "// ${PRAGMA}" lines: one says where it runs`);
  /** @type {Partial<Placement>} */
  const p = { witnessing: false };
  /** @type {Set<string>} */
  const seen = new Set();
  for (const word of /** @type {string} */ (found[0]).split(/\s+/).filter(Boolean)) {
    const [key = "", value, ...rest] = word.split("=");
    if (seen.has(key)) throw new Error(`"${key}" declared twice`);
    seen.add(key);
    if (key === "db" && value !== undefined && rest.length === 0) {
      const dbs = value.split(",");
      const unknown = dbs.filter((d) => !DBS.includes(/** @type {Db} */ (d)));
      if (unknown.length || dbs.length === 0 || new Set(dbs).size !== dbs.length)
        throw new Error(`db=${value}: a comma-separated list of ${DBS.join(", ")}, each once`);
      p.db = DBS.filter((d) => dbs.includes(d));
    } else if (key === "lane" && value !== undefined && rest.length === 0) {
      if (!LANE.test(value)) throw new Error(`lane=${value}: one of main, alone, second-server, side-<name>`);
      p.lane = value;
    } else if (key === "witnessing" && value === undefined) {
      p.witnessing = true;
    } else throw new Error(`"${word}" is not a word of the declaration (db=…, lane=…, witnessing)`);
  }
  if (!p.db) throw new Error("no db=…");
  if (!p.lane) throw new Error("no lane=…");
  return /** @type {Placement} */ (p);
}
