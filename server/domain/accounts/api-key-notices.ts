import "server-only";
import { getConfig } from "../../config";
import { onShutdown } from "../../lifecycle.mjs";
import { newApiKeysNotice, type KeyNote } from "../../mail/messages";
import { sendMail } from "../../mail/transport";
import { logger } from "../../observability/logger.mjs";
import { processWide } from "../../process-wide";
import { ownerEmailOf } from "./api-keys";

/**
 * New-key notices: every key made is told to the account's owner, from no mail budget (key
 * creation is bounded by the plan). The first key in a while is mailed at once; keys made in
 * the next HALLMARK_KEY_NOTICE_DIGEST_SECONDS (default 60; 0 mails each at once) join one
 * digest, mailed when that window ends (and a busy account gets one digest a window), so a
 * script making keys in a burst sends a few mails, not one a key, and never waits for any.
 * The owner's address is read when a mail goes (so a digest goes where the account is now),
 * in the background. Pending digests are mailed at shutdown; a process killed outright loses
 * them, as it loses any mail still being sent.
 */
/** A digest lists at most this many keys by name, then counts the rest. */
export const DIGEST_KEYS_LISTED = 50;

type Window = { keys: KeyNote[]; more: number; timer: NodeJS.Timeout };

const state = processWide("key-notices", () => {
  const windows = new Map<string, Window>();
  onShutdown("key notices", async () => {
    const pending = [...windows.entries()];
    windows.clear();
    for (const [tenantId, w] of pending) {
      clearTimeout(w.timer);
      if (w.keys.length > 0) await mail(tenantId, w.keys, w.more);
    }
  });
  return { windows };
});

/** Mails the notice of `keys` to the account's owner, if it has one; never throws. */
async function mail(tenantId: string, keys: KeyNote[], more: number): Promise<void> {
  try {
    const to = await ownerEmailOf(tenantId);
    if (to) await sendMail(newApiKeysNotice(to, keys, more));
  } catch (err) {
    logger.error({ err: (err as Error).message }, "new-key notice failed");
  }
}

function openWindow(tenantId: string): void {
  const seconds = getConfig().keyNoticeDigestSeconds;
  if (seconds === 0) return;
  const timer = setTimeout(() => closeWindow(tenantId), seconds * 1000);
  timer.unref();
  state.windows.set(tenantId, { keys: [], more: 0, timer });
}

/** The window ends: its keys (if any) go in one digest, and the next window opens; with none, the account is quiet again. */
function closeWindow(tenantId: string): void {
  const w = state.windows.get(tenantId);
  state.windows.delete(tenantId);
  if (!w || w.keys.length === 0) return;
  void mail(tenantId, w.keys, w.more);
  openWindow(tenantId);
}

/** Tells the account's owner that a key was made: at once, or in the window's digest. Returns at once. */
export function noticeNewKey(tenantId: string, key: KeyNote): void {
  const w = state.windows.get(tenantId);
  if (!w) {
    void mail(tenantId, [key], 0);
    openWindow(tenantId);
    return;
  }
  if (w.keys.length < DIGEST_KEYS_LISTED) w.keys.push(key);
  else w.more += 1;
}
