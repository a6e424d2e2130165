// @ts-check
// Files and folders only their owner may read, made so from the start: the database (SQLite gives
// its -wal and -shm the database file's mode), the master key, the outbox's mail (its links sign
// in), backups and every temporary file on the way to one. Modes are set when a file is created
// (the open's mode, which the umask can only narrow), never by a chmod afterwards, which would
// leave the file readable by every local user until it ran.
import fs from "node:fs";

export const PRIVATE_FILE_MODE = 0o600;
export const PRIVATE_DIR_MODE = 0o700;

/**
 * Creates the folders of `dir` that do not exist yet, owner-only; existing ones are left as they are.
 * @param {string} dir
 */
export function makePrivateDir(dir) {
  fs.mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
}

/**
 * Creates `file` empty and owner-only if it does not exist (an empty file is an empty SQLite
 * database); an existing file is left as it is. Answers whether it created it.
 * @param {string} file
 */
export function createPrivateFile(file) {
  try {
    fs.closeSync(fs.openSync(file, "wx", PRIVATE_FILE_MODE));
    return true;
  } catch (err) {
    if (/** @type {NodeJS.ErrnoException} */ (err).code === "EEXIST") return false;
    throw err;
  }
}

/**
 * Copies `from` to `to`, a new owner-only file (an existing `to` is an error). Unlike
 * fs.copyFileSync, which gives the copy the source's mode, whatever the source's mode is.
 * @param {string} from
 * @param {string} to
 */
export function copyToPrivateFile(from, to) {
  const src = fs.openSync(from, "r");
  try {
    const dst = fs.openSync(to, "wx", PRIVATE_FILE_MODE);
    try {
      const chunk = Buffer.allocUnsafe(1 << 20);
      for (let n = 0; (n = fs.readSync(src, chunk, 0, chunk.length, null)) > 0; ) {
        for (let done = 0; done < n; ) done += fs.writeSync(dst, chunk, done, n - done);
      }
    } finally {
      fs.closeSync(dst);
    }
  } finally {
    fs.closeSync(src);
  }
}
