import Link from "next/link";
import { currentViewer } from "@/server/pages/page-viewer";
import { SignOutButton } from "./sign-out-button";
import { LinkButton } from "./ui";

const navLink =
  "rounded-md px-3 py-2 text-sm font-medium text-stone-800 hover:bg-stone-200 focus-visible:outline focus-visible:outline-2 focus-visible:outline-teal-700";

export async function SiteHeader() {
  const viewer = await currentViewer();
  return (
    <header className="border-b border-stone-200 bg-white/90 backdrop-blur">
      <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-2 px-4 py-3 sm:px-6">
        <Link
          href="/"
          className="flex items-center gap-2 rounded-md text-lg font-semibold tracking-tight focus-visible:outline focus-visible:outline-2 focus-visible:outline-teal-700"
        >
          <span aria-hidden className="grid h-7 w-7 place-items-center rounded-lg bg-teal-800 text-sm text-white">
            H
          </span>
          Hallmark
        </Link>
        <nav aria-label="Main" className="flex flex-wrap items-center gap-1">
          <Link className={navLink} href="/check">
            Check a file
          </Link>
          {viewer?.realm === "consumer" ? (
            <>
              <Link className={navLink} href="/dashboard">
                Protect
              </Link>
              <Link className={navLink} href="/dashboard/protections">
                Protections
              </Link>
              <Link className={navLink} href="/dashboard/api-keys">
                API keys
              </Link>
            </>
          ) : null}
          {viewer?.realm === "organization" ? (
            <>
              <Link className={navLink} href="/console">
                API keys
              </Link>
              <Link className={navLink} href="/console/issuers">
                Issuers
              </Link>
              <Link className={navLink} href="/console/packs">
                Packs
              </Link>
              <Link className={navLink} href="/console/verifications">
                Verifications
              </Link>
            </>
          ) : null}
          {viewer ? (
            <>
              <Link className={navLink} href="/dashboard/account">
                Account
              </Link>
              <span className="hidden px-2 text-sm text-stone-600 md:inline">{viewer.email}</span>
              <SignOutButton />
            </>
          ) : (
            <>
              <Link className={navLink} href="/login">
                Log in
              </Link>
              <LinkButton href="/signup">Sign up</LinkButton>
            </>
          )}
        </nav>
      </div>
    </header>
  );
}
