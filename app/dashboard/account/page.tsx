import type { Metadata } from "next";
import Link from "next/link";
import { requireViewer } from "@/server/pages/page-viewer";
import { CHANGE_EMAIL_MINUTES } from "@/server/domain/accounts";
import { ConsoleEyebrow, PageHeader, textLink } from "../../_components/ui";
import { DeleteAccountForm } from "./delete-account";
import { EmailForm } from "./email-form";
import { NameForm } from "./name-form";
import { PasswordForm } from "./password-form";
import { AccountSection } from "./section";
import { SessionsList } from "./sessions-list";

export const metadata: Metadata = { title: "Your account" };

/** The signed-in person's own account: a creator's, or an organisation owner's (who cannot delete it here). */
export default async function AccountPage() {
  const viewer = await requireViewer("/dashboard/account");
  const creator = viewer.realm === "consumer";
  return (
    <div className="mx-auto max-w-3xl">
      {creator ? null : <ConsoleEyebrow org={viewer.tenant.name} />}
      <PageHeader title="Your account" lead="Your name, your e-mail address, your password, and where you are logged in." />
      <div className="space-y-6">
        <AccountSection
          id="account-name"
          title="Name"
          lead={creator ? "Shown on your public protections, their share pages and your portfolio." : "Shown to you in the console."}
        >
          <NameForm initial={viewer.name} />
        </AccountSection>

        <AccountSection
          id="account-email"
          title="E-mail address"
          lead={
            <>
              <p>
                You log in with <strong className="break-all">{viewer.email}</strong>.
              </p>
              <p>
                To use another address, we mail a link to the new one: the account moves when it is opened. The current address gets a
                notice at once, so a change you did not ask for does not go unseen.
              </p>
            </>
          }
        >
          <EmailForm current={viewer.email} minutes={CHANGE_EMAIL_MINUTES} />
        </AccountSection>

        <AccountSection
          id="account-password"
          title="Password"
          lead="Changing it logs out every other session of your account (other browsers and devices); this one stays. We mail your address a notice of the change."
        >
          <PasswordForm keysOf={creator ? "your account" : viewer.tenant.name} />
        </AccountSection>

        <AccountSection
          id="account-sessions"
          title="Sessions"
          lead="Where your account is logged in, newest first. End any you do not recognise, then change your password."
        >
          <SessionsList />
        </AccountSection>

        {creator ? (
          <AccountSection id="account-delete" title="Delete your account" danger lead={<DeleteWhatGoes />}>
            <DeleteAccountForm />
          </AccountSection>
        ) : null}
      </div>
    </div>
  );
}

/** What a deletion removes and what it cannot, in plain words (server/domain/accounts/account-settings.ts deleteAccount). */
function DeleteWhatGoes() {
  return (
    <>
      <p className="font-medium text-stone-900">This cannot be undone.</p>
      <p>
        <strong>What goes:</strong> your name, e-mail address and password; every session (this one too) and every API key; and every
        protection's record: its title, description and file details (name, type, size). The verify, share and portfolio pages of your
        protections then say “not found”.
      </p>
      <p>
        <strong>What stays:</strong> each protection's signed entry in the public transparency log: its id, content hash and category,
        signed by a personal issuer that never carried your name. The log can only grow, so these entries cannot be taken out, by us or
        anyone.
      </p>
      <p>
        Want a copy first?{" "}
        <Link className={textLink} href="/dashboard/protections">
          Export your protections
        </Link>{" "}
        with their proofs before you delete. Afterwards the address is free to sign up again, as a new account.
      </p>
    </>
  );
}
