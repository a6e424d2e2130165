"use client";
import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { useTRPC } from "../../_trpc/client";
import { useFieldErrors } from "../../_components/field-errors";
import { Alert, Button, Field, Input } from "../../_components/ui";

/** Renames the person (a creator's public pages show the new name at once). */
export function NameForm({ initial }: { initial: string }) {
  const trpc = useTRPC();
  const formId = useId();
  const rename = useMutation(trpc.account.rename.mutationOptions());
  const { errors, check, fromServer, generalError, describe } = useFieldErrors(formId);
  const [name, setName] = useState(initial);
  const [saved, setSaved] = useState<string | null>(null);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setSaved(null);
    if (!check(name.trim() ? {} : { name: "Enter a name." })) return;
    await rename.mutateAsync({ name }).then((account) => {
      setName(account.name);
      setSaved(account.name);
    }, fromServer);
  }

  const general = generalError(rename.error);
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      {general ? <Alert title="The name was not changed">{general}</Alert> : null}
      {saved ? (
        <Alert tone="success">
          Saved: you are now <span className="break-words font-medium">{saved}</span>.
        </Alert>
      ) : null}
      <Field label="Name" id={`${formId}-name`} error={errors.name}>
        <Input
          id={`${formId}-name`}
          value={name}
          onChange={(e) => setName(e.target.value)}
          autoComplete="name"
          required
          maxLength={100}
          aria-invalid={errors.name ? true : undefined}
          aria-describedby={errors.name ? describe("name") : undefined}
        />
      </Field>
      <Button type="submit" variant="secondary" disabled={rename.isPending}>
        {rename.isPending ? "Saving…" : "Save name"}
      </Button>
    </form>
  );
}
