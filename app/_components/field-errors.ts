import { useState } from "react";
import { errorInfo } from "../_trpc/client";

const capitalise = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/**
 * Field errors of a failed tRPC call, keyed by input field, as sentences ("Must be …"): the
 * server's error formatter puts them in `data.fieldErrors` (zod issues or AppError pointers).
 */
export function fieldErrorsOf(err: unknown): Record<string, string> {
  const data = (err as { data?: { fieldErrors?: Record<string, string> | null } } | null)?.data;
  return Object.fromEntries(Object.entries(data?.fieldErrors ?? {}).map(([k, v]) => [k, capitalise(v)]));
}

/**
 * A form's field errors: what the form finds itself, or what the server answers, shown at the
 * fields (controls are `${formId}-${field}`), with focus moved to the first one.
 */
export function useFieldErrors(formId: string) {
  const [errors, setErrors] = useState<Record<string, string>>({});
  const show = (found: Record<string, string>) => {
    setErrors(found);
    const first = Object.keys(found)[0];
    if (first) document.getElementById(`${formId}-${first}`)?.focus();
    return first === undefined;
  };
  return {
    formId,
    errors,
    clear: () => setErrors({}),
    /** Shows the form's own findings; true when there are none. */
    check: (found: Record<string, string>) => show(found),
    /** Shows a failed call's field errors. */
    fromServer: (err: unknown) => void show(fieldErrorsOf(err)),
    /** A failure that is not about one field, in words for people (null otherwise). */
    generalError: (err: unknown) => (err && Object.keys(fieldErrorsOf(err)).length === 0 ? errorInfo(err).message : null),
    /** The id describing a control: its error when it has one, else its hint. */
    describe: (field: string) => (errors[field] ? `${formId}-${field}-error` : `${formId}-${field}-hint`),
  };
}
