import type { FormEvent } from "react";
import { Alert, Button, Field, Input, Select, Textarea, cx } from "@/app/_components/ui";
import { CATEGORIES, CATEGORY_LABELS, type Category } from "@/app/_components/categories";
import type { FormValues, Item } from "./protect-item";

export function MintForm({
  item,
  onChange,
  onProtect,
}: {
  item: Item;
  onChange: (form: Partial<FormValues>) => void;
  onProtect: () => void;
}) {
  const id = (name: string) => `${item.key}-${name}`;
  const busy = item.phase === "minting";
  const fields = item.mintError?.fields ?? {};
  const describedBy = (name: string, hint = false) => (fields[name] ? `${id(name)}-error` : hint ? `${id(name)}-hint` : undefined);
  function submit(e: FormEvent) {
    e.preventDefault();
    onProtect();
  }
  return (
    <form onSubmit={submit} className="mt-5 space-y-4" aria-label={`Details for ${item.name}`}>
      <fieldset disabled={busy} className="grid gap-4 md:grid-cols-2">
        <Field label="Title" id={id("title")} error={fields.title}>
          <Input
            id={id("title")}
            value={item.form.title}
            maxLength={200}
            onChange={(e) => onChange({ title: e.target.value })}
            aria-describedby={describedBy("title")}
            aria-invalid={fields.title ? true : undefined}
          />
        </Field>
        <Field label="Category" id={id("category")} error={fields.category}>
          <Select
            id={id("category")}
            value={item.form.category}
            onChange={(e) => onChange({ category: e.target.value as Category })}
            aria-describedby={describedBy("category")}
          >
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {CATEGORY_LABELS[c]}
              </option>
            ))}
          </Select>
        </Field>
        <div className="md:col-span-2">
          <Field label="Description" id={id("description")} error={fields.description} hint="Optional. What it is, how you made it.">
            <Textarea
              id={id("description")}
              rows={2}
              value={item.form.description}
              maxLength={5000}
              onChange={(e) => onChange({ description: e.target.value })}
              aria-describedby={describedBy("description", true)}
              aria-invalid={fields.description ? true : undefined}
            />
          </Field>
        </div>
        <fieldset className="md:col-span-2">
          <legend className="text-sm font-medium text-stone-800">Visibility</legend>
          <div className="mt-2 grid gap-2 sm:grid-cols-2">
            {(
              [
                ["private", "Private", "Only you see it. The public log holds a sealed entry that says nothing of it."],
                ["public", "Public", "Anyone with its link sees it, with its title, description and file name; your portfolio lists it."],
              ] as const
            ).map(([value, label, hint]) => (
              <label
                key={value}
                className={cx(
                  "flex cursor-pointer gap-3 rounded-lg border px-3 py-2.5 text-sm has-[:focus-visible]:outline has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-teal-700",
                  item.form.visibility === value ? "border-teal-700 bg-teal-50" : "border-stone-300 bg-white hover:bg-stone-50",
                )}
              >
                <input
                  type="radio"
                  name={id("visibility")}
                  value={value}
                  checked={item.form.visibility === value}
                  onChange={() => onChange({ visibility: value })}
                  aria-labelledby={id(`${value}-label`)}
                  aria-describedby={id(`${value}-hint`)}
                  className="mt-0.5 accent-teal-800 focus:outline-none"
                />
                <span>
                  <span id={id(`${value}-label`)} className="block font-medium text-stone-900">
                    {label}
                  </span>
                  <span id={id(`${value}-hint`)} className="block text-stone-700">
                    {hint}
                  </span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      </fieldset>
      {item.mintError ? (
        <Alert title={item.mintError.code === "quota_exceeded" ? "Monthly quota reached" : "Could not protect this file"}>
          {item.mintError.message}
          {item.mintError.code ? <span className="sr-only"> (code {item.mintError.code})</span> : null}
        </Alert>
      ) : null}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" disabled={busy} aria-describedby={`${item.key}-protect-note`}>
          {busy ? "Protecting…" : item.phase === "mint-failed" ? "Try again" : "Protect"}
        </Button>
        <p id={`${item.key}-protect-note`} className="text-xs text-stone-600">
          Sends the hash and these details; the file stays here.
        </p>
      </div>
    </form>
  );
}
