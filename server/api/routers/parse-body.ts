import { z } from "zod";
import { AppError, type FieldError } from "../../domain/errors";
import { jsonPointer as pointerOf } from "../../domain/json-pointer";

/**
 * Validates a request body inside a procedure (so JSON pointers are relative to the body, not to
 * the procedure's input); a failure is 422 validation_failed with one pointer per problem, an
 * unknown member at its own pointer.
 */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.output<T> {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const errors: FieldError[] = parsed.error.issues.flatMap((i) =>
    i.code === "unrecognized_keys"
      ? i.keys.map((k) => ({ pointer: pointerOf([...i.path, k]), detail: "is not a known field" }))
      : [{ pointer: pointerOf(i.path), detail: i.message }],
  );
  throw new AppError("validation_failed", "The request body failed validation; see errors.", errors);
}
