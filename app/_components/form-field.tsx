import type { ComponentProps, ReactNode } from "react";
import { Field, Input } from "./ui";

/** What a field needs of its form's useFieldErrors. */
export interface FormFields {
  formId: string;
  errors: Record<string, string>;
  describe: (field: string) => string;
}

/**
 * A labelled input of a form using useFieldErrors: its id is `${formId}-${name}` (where the
 * form moves focus to the first error), and it is marked invalid and described by its error, or
 * by its hint when it has one.
 */
export function FormField({
  fields,
  name,
  label,
  hint,
  ...input
}: { fields: FormFields; name: string; label: string; hint?: ReactNode } & Omit<ComponentProps<"input">, "id" | "name">) {
  const id = `${fields.formId}-${name}`;
  const error = fields.errors[name];
  return (
    <Field label={label} id={id} error={error} hint={hint}>
      <Input
        id={id}
        name={name}
        aria-invalid={error ? true : undefined}
        aria-describedby={error || hint ? fields.describe(name) : undefined}
        {...input}
      />
    </Field>
  );
}

/**
 * The current password, asked before a change to the account or an act that outlasts the
 * session (a new API key, a protection made public); `hint` says why it is asked.
 */
export const CurrentPasswordField = ({
  fields,
  hint,
  ...input
}: { fields: FormFields; hint?: ReactNode } & Pick<ComponentProps<"input">, "ref" | "value" | "onChange">) => (
  <FormField
    fields={fields}
    name="password"
    label="Current password"
    hint={hint}
    type="password"
    autoComplete="current-password"
    required
    maxLength={256}
    {...input}
  />
);

/** A new password, under the rules every password has (at least 8 characters, at most 256). */
export const NewPasswordField = ({ fields, name, label }: { fields: FormFields; name: string; label: string }) => (
  <FormField
    fields={fields}
    name={name}
    label={label}
    hint="At least 8 characters."
    type="password"
    autoComplete="new-password"
    required
    minLength={8}
    maxLength={256}
  />
);
