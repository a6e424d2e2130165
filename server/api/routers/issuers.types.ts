import { z } from "zod";
import { name } from "@/lib/text-schemas";

// RFC 1123 host name with at least two labels, e.g. "news.example.org"; stored lower-cased.
const HOSTNAME = /^(?=.{1,253}$)(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

export const ZCreateIssuerInput = z.strictObject({
  name: name(200),
  domain: z.string().trim().toLowerCase().regex(HOSTNAME, "must be a DNS host name such as news.example.org"),
});
