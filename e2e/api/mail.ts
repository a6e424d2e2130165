// The mail Hallmark sent during this suite: scripts/test.mjs runs a real SMTP server that
// writes each message it receives, raw, into HALLMARK_TEST_MAILDIR.
import fs from "node:fs/promises";
import path from "node:path";
import { simpleParser, type ParsedMail } from "mailparser";

const dir = process.env.HALLMARK_TEST_MAILDIR;
const parsed = new Map<string, ParsedMail>();

/** The addresses a message was sent to, lower-cased. */
export function recipients(mail: ParsedMail): string[] {
  const to = Array.isArray(mail.to) ? mail.to : mail.to ? [mail.to] : [];
  return to.flatMap((a) => a.value.map((v) => (v.address ?? "").toLowerCase()));
}

/** Every message caught so far for `address`, oldest first. */
export async function mailsTo(address: string): Promise<ParsedMail[]> {
  if (!dir) throw new Error("HALLMARK_TEST_MAILDIR is not set: run the suite through scripts/test.mjs");
  const names = (await fs.readdir(dir)).filter((n) => n.endsWith(".eml")).sort();
  for (const name of names) {
    if (!parsed.has(name)) parsed.set(name, await simpleParser(await fs.readFile(path.join(dir, name))));
  }
  return names.map((n) => parsed.get(n)!).filter((m) => recipients(m).includes(address.toLowerCase()));
}

/** Waits (up to `timeoutMs`) until `address` has received at least `count` messages; returns them all. */
export async function waitForMail(address: string, count = 1, timeoutMs = 15_000): Promise<ParsedMail[]> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const mails = await mailsTo(address);
    if (mails.length >= count) return mails;
    if (Date.now() > until) throw new Error(`no mail #${count} for ${address} within ${timeoutMs} ms (got ${mails.length})`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** The verification link of a message (from its plain-text part, with its whole query) and the token it carries. */
export function verificationLink(mail: ParsedMail): { link: string; token: string } {
  const match = /(\S+\/verify-email\?token=([A-Za-z0-9_-]+)\S*)/.exec(mail.text ?? "");
  if (!match) throw new Error(`no verification link in: ${mail.subject}`);
  return { link: match[1]!, token: match[2]! };
}

/** The password reset link of a message (from its plain-text part) and the token it carries. */
export function resetLink(mail: ParsedMail): { link: string; token: string } {
  const match = /(\S+\/reset-password\?token=([A-Za-z0-9_-]+)\S*)/.exec(mail.text ?? "");
  if (!match) throw new Error(`no reset link in: ${mail.subject}`);
  return { link: match[1]!, token: match[2]! };
}

/** Whether a message carries a password reset link. */
export const isResetMail = (mail: ParsedMail): boolean => /\/reset-password\?token=/.test(mail.text ?? "");
