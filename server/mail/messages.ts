import "server-only";
import { getConfig } from "../config";
import type { MailMessage } from "./transport";

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function html(paragraphs: string[], link?: { href: string; label: string }): string {
  const body = paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n");
  const button = link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>\n<p>${escapeHtml(link.href)}</p>` : "";
  return `<!doctype html>\n<html><body style="font-family: sans-serif">\n${body}\n${button}\n</body></html>\n`;
}

/** The link of a verification e-mail: the web page posts its token to /v1/consumer/verify-email. */
export function verificationLink(token: string): string {
  return `${getConfig().baseUrl}/verify-email?token=${encodeURIComponent(token)}`;
}

export function verificationMessage(to: string, name: string, token: string, hours: number): MailMessage {
  const link = verificationLink(token);
  const lines = [`Hello ${name},`, "Please confirm your e-mail address for Hallmark by opening this link:"];
  const after = [`The link works once and expires in ${hours} hours. If you did not sign up, ignore this message.`];
  return {
    to,
    subject: "Confirm your e-mail address for Hallmark",
    text: `${lines.join("\n\n")}\n\n${link}\n\n${after.join("\n\n")}\n`,
    html: html([...lines], { href: link, label: "Confirm my e-mail address" }).replace(
      "</body>",
      `<p>${escapeHtml(after[0]!)}</p>\n</body>`,
    ),
  };
}

/** Sent instead of a verification link when someone signs up with an address that has a verified account. */
export function alreadyRegisteredMessage(to: string): MailMessage {
  const login = `${getConfig().baseUrl}/login`;
  const lines = [
    "Hello,",
    "Someone (hopefully you) tried to create a Hallmark account with this e-mail address, but an account already exists for it.",
    "If it was you, simply log in. If it was not you, you can ignore this message: nothing was changed.",
  ];
  return {
    to,
    subject: "You already have a Hallmark account",
    text: `${lines.join("\n\n")}\n\n${login}\n`,
    html: html(lines, { href: login, label: "Log in" }),
  };
}
