/** Field errors of a tRPC failure, keyed by field name (the server's errorFormatter puts them in data.fieldErrors). */
export function fieldErrorsOf(err: unknown): Record<string, string> {
  const data = (err as { data?: { fieldErrors?: Record<string, string> | null } } | null)?.data;
  return data?.fieldErrors ?? {};
}
