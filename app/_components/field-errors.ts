const capitalise = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);

/**
 * Field errors of a failed tRPC call, keyed by input field, as sentences ("Must be …"): the
 * server's error formatter puts them in `data.fieldErrors` (zod issues or AppError pointers).
 */
export function fieldErrorsOf(err: unknown): Record<string, string> {
  const data = (err as { data?: { fieldErrors?: Record<string, string> | null } } | null)?.data;
  return Object.fromEntries(Object.entries(data?.fieldErrors ?? {}).map(([k, v]) => [k, capitalise(v)]));
}
