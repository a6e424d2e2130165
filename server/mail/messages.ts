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

/**
 * The link of a verification e-mail: the web page asks for the password it finishes with and
 * posts both to /v1/consumer/verify-email.
 */
export function verificationLink(token: string): string {
  return `${getConfig().baseUrl}/verify-email?token=${encodeURIComponent(token)}`;
}

/** A message with one link: its lines, the link, then what to know about it. */
function linkMessage(to: string, subject: string, lines: string[], link: { href: string; label: string }, after: string[]): MailMessage {
  return {
    to,
    subject,
    text: `${lines.join("\n\n")}\n\n${link.href}\n\n${after.join("\n\n")}\n`,
    html: html(lines, link).replace("</body>", `${after.map((p) => `<p>${escapeHtml(p)}</p>`).join("\n")}\n</body>`),
  };
}

/** A moment as people read it in mail: "2026-11-26 06:41 UTC". */
const utc = (d: Date) => `${d.toISOString().slice(0, 16).replace("T", " ")} UTC`;

/**
 * The link that confirms a sign-up (`signup`: it finishes only with the password chosen then),
 * or an operator-made account. It carries nothing the person signing up typed (a stranger can
 * make us send it to any address): no name, only when it was asked for.
 */
export function verificationMessage(to: string, token: string, hours: number, requestedAt: Date, opts: { signup: boolean }): MailMessage {
  return linkMessage(
    to,
    "Confirm your e-mail address for Hallmark",
    ["Hello,", `A Hallmark account for this address was asked for on ${utc(requestedAt)}. To confirm it is yours, open this link:`],
    { href: verificationLink(token), label: "Confirm my e-mail address" },
    [
      opts.signup
        ? `The link works once and expires in ${hours} hours. To finish, enter the password you chose when you signed up.`
        : `The link works once and expires in ${hours} hours. To finish, enter your account's password.`,
      opts.signup
        ? "If you did not sign up, ignore this message: no account is made without this link and that password. To have an account here, sign up yourself."
        : "If you did not expect this, ignore this message: nothing changes without this link and that password.",
    ],
  );
}

/** A reset link: the web page asks for the new password and posts both to /v1/consumer/password-reset/confirm. */
export function passwordResetMessage(to: string, token: string, minutes: number): MailMessage {
  return linkMessage(
    to,
    "Reset your Hallmark password",
    [
      "Hello,",
      "Someone (hopefully you) asked to reset the password of the Hallmark account for this address. To choose a new one, open this link:",
    ],
    { href: `${getConfig().baseUrl}/reset-password?token=${encodeURIComponent(token)}`, label: "Choose a new password" },
    [
      `The link works once and expires in ${minutes} minutes. Setting a new password logs out every session of the account and revokes every API key it has; the page lists them first.`,
      "If you did not ask for this, ignore this message: your password stays as it is.",
    ],
  );
}

/** Sent to the new address of an e-mail change: following it, with the account's password, moves the account there. */
export function emailChangeMessage(to: string, token: string, minutes: number): MailMessage {
  return linkMessage(
    to,
    "Confirm your new e-mail address for Hallmark",
    ["Hello,", "A Hallmark account asked to use this address from now on. To confirm it is yours, open this link:"],
    { href: verificationLink(token), label: "Confirm my new e-mail address" },
    [
      `The link works once and expires in ${minutes} minutes. To finish, enter the password of the account that is moving here.`,
      "If you did not ask for this, ignore this message: no account moves here without this link and that password.",
    ],
  );
}

/** A notice with a link to log in: its lines, then the link. */
function noticeWithLogin(to: string, subject: string, lines: string[]): MailMessage {
  const login = `${getConfig().baseUrl}/login`;
  return { to, subject, text: `${lines.join("\n\n")}\n\n${login}\n`, html: html(lines, { href: login, label: "Log in" }) };
}

/** Sent to the old address when a change to another is asked for. */
export function emailChangeNotice(to: string, newEmail: string): MailMessage {
  return noticeWithLogin(to, "Your Hallmark e-mail address is about to change", [
    "Hello,",
    `Someone logged in to your Hallmark account asked to move it to the address ${newEmail}. Nothing changes until the link sent there is followed.`,
    "If it was not you, log in and change your password now (it ends every other session), or reset it from the login page.",
  ]);
}

/** Sent once an account is deleted. */
export function accountDeletedMessage(to: string): MailMessage {
  const lines = [
    "Hello,",
    "Your Hallmark account for this address was deleted: its name, address, password, sessions, API keys and protection records are gone.",
    "The signed entries of its protections stay in the public transparency log (the log can only grow); they hold a content hash and a category, never your name.",
  ];
  return { to, subject: "Your Hallmark account was deleted", text: `${lines.join("\n\n")}\n`, html: html(lines) };
}

/** Sent instead of a verification link when someone signs up with an address that has a verified account. */
export function alreadyRegisteredMessage(to: string): MailMessage {
  return noticeWithLogin(to, "You already have a Hallmark account", [
    "Hello,",
    "Someone (hopefully you) tried to create a Hallmark account with this e-mail address, but an account already exists for it.",
    "If it was you, simply log in. If it was not you, you can ignore this message: nothing was changed.",
  ]);
}

/** Where and from what a security-relevant change was asked: "203.0.113.7, Firefox/131.0 …". */
const origin = (request: { client: string; userAgent: string | null }) =>
  `${request.client}, with the browser or program "${(request.userAgent ?? "unknown").slice(0, 200)}"`;

/** One new key as its notice tells it. */
export interface KeyNote {
  name: string;
  prefix: string;
  at: Date;
  client: string;
  userAgent: string | null;
}

/**
 * Sent for new API keys (a key outlasts the session that made it): one, or a digest of those
 * made in a short while, each with its name, prefix, time, client address and browser; `more`
 * counts keys made beyond those listed.
 */
export function newApiKeysNotice(to: string, keys: KeyNote[], more: number): MailMessage {
  const line = (k: KeyNote) => `"${k.name}" (it starts with ${k.prefix}), on ${utc(k.at)}, from ${origin(k)}.`;
  const one = keys.length === 1 && more === 0;
  return noticeWithLogin(
    to,
    one ? "A new API key was added to your Hallmark account" : "New API keys were added to your Hallmark account",
    [
      "Hello,",
      one ? `A new API key was added to your Hallmark account: ${line(keys[0]!)}` : "New API keys were added to your Hallmark account:",
      ...(one ? [] : keys.map(line)),
      ...(more > 0 ? [`And ${more} more in the same while.`] : []),
      "If it was you, there is nothing to do. If it was not, reset your password from the login page: a reset ends every session and revokes every API key of the account.",
    ],
  );
}

/** Sent when the account's password is changed from a session. */
export function passwordChangedNotice(
  to: string,
  change: { at: Date; client: string; userAgent: string | null; keysRevoked: number },
): MailMessage {
  return noticeWithLogin(to, "Your Hallmark password was changed", [
    "Hello,",
    `The password of your Hallmark account was changed on ${utc(change.at)}, from ${origin(change)}. Every other session was logged out${
      change.keysRevoked > 0 ? `, and ${change.keysRevoked} API key${change.keysRevoked === 1 ? " was" : "s were"} revoked` : ""
    }.`,
    "If it was not you, reset your password from the login page now: a reset ends every session and revokes every API key of the account.",
  ]);
}
