"use client";
// Actions on one pack: clone (a template or a custom pack) into a new custom pack, and archive
// or restore a custom pack, each after a dialog.
import { useMutation } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { useId, useRef, useState, type FormEvent } from "react";
import { ConfirmDialog, Modal } from "./api-keys-dialog";
import { DialogActions } from "./dialog-actions";
import { useFieldErrors } from "./field-errors";
import { Alert, Button, Field, Input } from "./ui";
import { errorInfo, useTRPC } from "../_trpc/client";

export function ClonePackButton({
  pack,
  label = "Clone into a custom pack",
  variant = "primary",
}: {
  pack: { id: string; name: string };
  label?: string;
  variant?: "primary" | "secondary";
}) {
  const trpc = useTRPC();
  const router = useRouter();
  const formId = useId();
  const nameRef = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [name, setName] = useState("");
  const { errors, clear, check, fromServer, generalError, describe } = useFieldErrors(formId);
  const clone = useMutation(trpc.packs.clone.mutationOptions());

  function show() {
    clone.reset();
    clear();
    setName(`${pack.name} (copy)`.slice(0, 200));
    setOpen(true);
  }

  function close() {
    if (clone.isPending) return;
    setOpen(false);
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!check(name.trim() ? {} : { name: "Give the new pack a name." })) return;
    try {
      const created = await clone.mutateAsync({ id: pack.id, name: name.trim() });
      router.push(`/console/packs/${created.id}?cloned=1`);
    } catch (err) {
      fromServer(err);
    }
  }

  const serverError = generalError(clone.error);
  const busy = clone.isPending || clone.isSuccess;

  return (
    <>
      <Button variant={variant} onClick={show}>
        {label}
      </Button>
      <Modal
        open={open}
        onClose={close}
        title="Clone into a custom pack"
        description={<>A new custom pack with the rules of “{pack.name}”, which you can then edit. The original stays as it is.</>}
        busy={busy}
        initialFocus={nameRef}
      >
        <form onSubmit={submit} noValidate className="space-y-5">
          {serverError ? <Alert title="The pack was not cloned">{serverError}</Alert> : null}
          <Field label="Name of the new pack" id={`${formId}-name`} error={errors.name}>
            <Input
              ref={nameRef}
              id={`${formId}-name`}
              value={name}
              onChange={(e) => setName(e.target.value)}
              maxLength={200}
              autoComplete="off"
              aria-invalid={errors.name ? true : undefined}
              aria-describedby={errors.name ? describe("name") : undefined}
            />
          </Field>
          <DialogActions onCancel={close} label="Clone pack" busyLabel="Cloning…" busy={busy} ruled />
        </form>
      </Modal>
    </>
  );
}

export function PackStatusButton({ pack }: { pack: { id: string; name: string; status: string } }) {
  const trpc = useTRPC();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const update = useMutation(trpc.packs.update.mutationOptions());
  const archiving = pack.status === "active";

  async function confirm() {
    try {
      await update.mutateAsync({ id: pack.id, status: archiving ? "archived" : "active" });
      setOpen(false);
      router.refresh();
    } catch {
      // shown in the dialog
    }
  }

  return (
    <>
      <Button
        variant="secondary"
        onClick={() => {
          update.reset();
          setOpen(true);
        }}
      >
        {archiving ? "Archive" : "Restore"}
      </Button>
      <ConfirmDialog
        open={open}
        tone={archiving ? "danger" : "primary"}
        title={archiving ? "Archive this pack?" : "Restore this pack?"}
        description={
          archiving ? (
            <p>
              “{pack.name}” can no longer be used for new verifications. Its past verifications stay recorded, and you can restore it at any
              time.
            </p>
          ) : (
            <p>“{pack.name}” becomes active again and can be used for verifications.</p>
          )
        }
        confirmLabel={archiving ? "Archive pack" : "Restore pack"}
        pendingLabel={archiving ? "Archiving…" : "Restoring…"}
        pending={update.isPending}
        error={update.isError ? errorInfo(update.error).message : null}
        onConfirm={() => void confirm()}
        onCancel={() => setOpen(false)}
      />
    </>
  );
}
