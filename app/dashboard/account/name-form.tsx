"use client";
import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { useTRPC } from "../../_trpc/client";
import { useFieldErrors } from "../../_components/field-errors";
import { FormField } from "../../_components/form-field";
import { Alert, Button } from "../../_components/ui";

/** Renames the person (a creator's public pages show the new name at once). */
export function NameForm({ initial }: { initial: string }) {
  const trpc = useTRPC();
  const formId = useId();
  const rename = useMutation(trpc.account.rename.mutationOptions());
  const fields = useFieldErrors(formId);
  const { check, fromServer, generalError } = fields;
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
      <FormField
        fields={fields}
        name="name"
        label="Name"
        value={name}
        onChange={(e) => setName(e.target.value)}
        autoComplete="name"
        required
        maxLength={100}
      />
      <Button type="submit" variant="secondary" disabled={rename.isPending}>
        {rename.isPending ? "Saving…" : "Save name"}
      </Button>
    </form>
  );
}
