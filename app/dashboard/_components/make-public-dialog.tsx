"use client";
// Making a private protection public, after the current password: it publishes the protection
// (and, for one minted private, the opening of its sealed log entry) for good, so a session
// alone (a browser left open) must not be enough. Field errors (a missing or wrong password)
// show at the field; anything else above the buttons.
import { useMutation } from "@tanstack/react-query";
import { useId, useRef, useState, type FormEvent, type RefObject } from "react";
import { useTRPC } from "@/app/_trpc/client";
import { Modal } from "@/app/_components/api-keys-dialog";
import { DialogActions } from "@/app/_components/dialog-actions";
import { useFieldErrors } from "@/app/_components/field-errors";
import { CurrentPasswordField } from "@/app/_components/form-field";
import { Alert } from "@/app/_components/ui";
import type { ProtectionItem } from "./protect-types";

export function MakePublicDialog({
  p,
  name,
  open,
  onClose,
  onDone,
  returnFocus,
}: {
  p: ProtectionItem;
  name: string;
  open: boolean;
  onClose: () => void;
  onDone: () => void;
  returnFocus: RefObject<HTMLElement | null>;
}) {
  const trpc = useTRPC();
  const formId = useId();
  const passwordRef = useRef<HTMLInputElement>(null);
  const [password, setPassword] = useState("");
  const fields = useFieldErrors(formId);
  const { check, clear, fromServer, generalError } = fields;
  const change = useMutation(trpc.consumer.setVisibility.mutationOptions());

  function close() {
    if (change.isPending) return;
    setPassword("");
    clear();
    change.reset();
    onClose();
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!check(password ? {} : { password: "Enter your current password." })) return;
    try {
      await change.mutateAsync({ id: p.protection_id, visibility: "public", password });
    } catch (err) {
      return fromServer(err);
    }
    setPassword("");
    change.reset();
    onDone();
  }

  const general = generalError(change.error);
  return (
    <Modal
      open={open}
      onClose={close}
      role="alertdialog"
      title={`Make “${name}” public?`}
      description={
        <>
          <p>
            Its verify and share pages will show it to anyone with the link, with its title, description, file name and your name, your
            portfolio will list it, and anyone who looks up its file (or a picture like it) will find it.
          </p>
          <p className="mt-2">
            {p.sealed
              ? "Its proof will carry the opening of its sealed entry in the public log, so anyone can check it. That opening is published for good: whoever keeps a copy of the proof can open the entry, even after you make it private again."
              : "What is public can be copied, and making it private later does not take copies back."}
          </p>
        </>
      }
      busy={change.isPending}
      initialFocus={passwordRef}
      returnFocus={returnFocus}
    >
      <form onSubmit={submit} noValidate className="space-y-4">
        <CurrentPasswordField
          fields={fields}
          ref={passwordRef}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          hint="This cannot be undone, so we ask for your password."
        />
        {general ? <Alert title="It is still private">{general}</Alert> : null}
        <DialogActions onCancel={close} label="Make public" busyLabel="Saving…" busy={change.isPending} />
      </form>
    </Modal>
  );
}
