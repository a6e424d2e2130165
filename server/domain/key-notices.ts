import "server-only";
import { getConfig } from "../config";
import { onShutdown } from "../lifecycle.mjs";
import { newApiKeysNotice, type KeyNote } from "../mail/messages";
import { sendMail, sendMailInBackground } from "../mail/transport";
import { processWide } from "../process-wide";

/**
 * New-key notices: every key made is told to the account's owner, from no mail budget (key
 * creation is bounded by the plan). The first key in a while is mailed at once; keys made in
 * the next HALLMARK_KEY_NOTICE_DIGEST_SECONDS (default 60; 0 mails each at once) join one
 * digest, mailed when that window ends (and a busy owner gets one digest a window), so a script
 * making keys in a burst sends a few mails, not one a key, and never waits for any. Pending
 * digests are mailed at shutdown; a process killed outright loses them, as it loses any mail
 * still being sent.
 */
/** A digest lists at most this many keys by name, then counts the rest. */
export const DIGEST_KEYS_LISTED = 50;

type Window = { keys: KeyNote[]; more: number; timer: NodeJS.Timeout };

const state = processWide("key-notices", () => {
  const windows = new Map<string, Window>();
  onShutdown("key notices", async () => {
    const pending = [...windows.entries()];
    windows.clear();
    for (const [to, w] of pending) {
      clearTimeout(w.timer);
      if (w.keys.length > 0) await sendMail(newApiKeysNotice(to, w.keys, w.more)).catch(() => undefined);
    }
  });
  return { windows };
});

function openWindow(to: string): void {
  const seconds = getConfig().keyNoticeDigestSeconds;
  if (seconds === 0) return;
  const timer = setTimeout(() => closeWindow(to), seconds * 1000);
  timer.unref();
  state.windows.set(to, { keys: [], more: 0, timer });
}

/** The window ends: its keys (if any) go in one digest, and the next window opens; with none, the owner is quiet again. */
function closeWindow(to: string): void {
  const w = state.windows.get(to);
  state.windows.delete(to);
  if (!w || w.keys.length === 0) return;
  sendMailInBackground(newApiKeysNotice(to, w.keys, w.more));
  openWindow(to);
}

/** Tells `ownerEmail` (if the account has one) that a key was made: at once, or in the window's digest. */
export function noticeNewKey(ownerEmail: string | null, key: KeyNote): void {
  if (!ownerEmail) return;
  const w = state.windows.get(ownerEmail);
  if (!w) {
    sendMailInBackground(newApiKeysNotice(ownerEmail, [key], 0));
    openWindow(ownerEmail);
    return;
  }
  if (w.keys.length < DIGEST_KEYS_LISTED) w.keys.push(key);
  else w.more += 1;
}
