import "server-only";
import { logger } from "../observability/logger.mjs";
import crypto from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import { getConfig } from "../config";
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from "../private-files.mjs";

/** One message as Hallmark sends it: plain text plus a simple HTML alternative. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html: string;
}

let smtp: Transporter | undefined;
let outbox: Transporter | undefined;

/** `<dataDir>/outbox/`: where messages go when no HALLMARK_SMTP_URL is configured. */
export function outboxDir(): string {
  return path.join(getConfig().dataDir, "outbox");
}

/**
 * Sends one message. With HALLMARK_SMTP_URL, through that SMTP server; without one (local
 * development), the message is written as an .eml file to `<dataDir>/outbox/` and its path
 * logged, so the links it carries can be followed by hand.
 */
export async function sendMail(message: MailMessage): Promise<void> {
  const { smtpUrl, mailFrom } = getConfig();
  const envelope = { from: mailFrom, ...message };
  if (smtpUrl) {
    smtp ??= nodemailer.createTransport(smtpUrl);
    await smtp.sendMail(envelope);
    return;
  }
  outbox ??= nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const info = await outbox.sendMail(envelope);
  const dir = outboxDir();
  // Owner-only, as the files in it: each holds a link that signs its reader in.
  await fs.mkdir(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, "-")}-${crypto.randomUUID()}.eml`);
  await fs.writeFile(file, info.message as Buffer, { mode: PRIVATE_FILE_MODE, flag: "wx" });
  // The .eml is quoted-printable; a plain copy beside it keeps its links copyable by hand.
  const txt = file.replace(/\.eml$/, ".txt");
  await fs.writeFile(txt, `To: ${message.to}\nSubject: ${message.subject}\n\n${message.text}`, { mode: PRIVATE_FILE_MODE, flag: "wx" });
  // The file, never the recipient or the text: the log holds no address and no link with a token.
  logger.info({ file, txt }, "no HALLMARK_SMTP_URL: mail written to the outbox");
}

/**
 * Sends in the background: the HTTP answer never waits for (or reveals anything through) mail
 * delivery. A failure is logged, never thrown.
 */
export function sendMailInBackground(message: MailMessage): void {
  sendMail(message).catch((err) => logger.error({ subject: message.subject, err: (err as Error).message }, "mail failed"));
}
