// Operator commands. Run through `npm run admin -- <command>`.
//   create-org --name <name> [--owner-email <e> --owner-password <p> [--owner-name <n>]] [--json]
//       an organisation and an API key holding every organisation scope; with an owner, the
//       user who signs in to the organisation's console (/console) with that e-mail and password
//   create-consumer --email <e> --password <p> --plan free|creator|pro [--name <n>] [--verified] [--json]
//       a consumer account (personal tenant) and an API key holding the consumer scopes
import { parseArgs } from "node:util";
import { z } from "zod";
import { getDb } from "@/server/db";
import { createConsumer, PLANS } from "@/server/domain/consumers";
import { createOrganization } from "@/server/domain/tenants";

const USAGE = `usage: npm run admin -- create-org --name <name> [--owner-email <e> --owner-password <p> [--owner-name <n>]] [--json]
       npm run admin -- create-consumer --email <e> --password <p> --plan ${PLANS.join("|")} [--name <n>] [--verified] [--json]`;

const ZOwner = z.object({
  email: z.email("--owner-email must be an e-mail address"),
  password: z.string().min(8, "--owner-password needs at least 8 characters").max(256),
  name: z.string().trim().min(1).max(100),
});

const ZConsumer = z.object({
  email: z.email(),
  password: z.string().min(8, "--password needs at least 8 characters").max(256),
  plan: z.enum(PLANS),
  name: z.string().trim().min(1).max(100),
});

function fail(message: string): number {
  console.error(`${message}\n${USAGE}`);
  return 2;
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: rest,
      options: {
        name: { type: "string" },
        email: { type: "string" },
        password: { type: "string" },
        plan: { type: "string" },
        "owner-email": { type: "string" },
        "owner-password": { type: "string" },
        "owner-name": { type: "string" },
        verified: { type: "boolean", default: false },
        json: { type: "boolean", default: false },
      },
      strict: true,
    }));
  } catch (err) {
    return fail((err as Error).message);
  }
  if (command === "create-org") {
    const name = typeof values.name === "string" ? values.name.trim() : "";
    if (!name || name.length > 200) return fail("--name is required (1 to 200 characters)");
    let owner: z.infer<typeof ZOwner> | undefined;
    const ownerEmail = values["owner-email"];
    if (ownerEmail !== undefined || values["owner-password"] !== undefined) {
      const email = typeof ownerEmail === "string" ? ownerEmail : "";
      const parsed = ZOwner.safeParse({ email, password: values["owner-password"] ?? "", name: values["owner-name"] ?? email.split("@")[0] });
      if (!parsed.success) return fail(parsed.error.issues.map((i) => i.message).join("\n"));
      owner = parsed.data;
    }
    const { tenantId, apiKey, ownerId } = await createOrganization({ name, owner });
    if (values.json) console.log(JSON.stringify({ tenant_id: tenantId, api_key: apiKey, ...(ownerId ? { owner_id: ownerId } : {}) }));
    else console.log(`Organisation ${tenantId} created.\nAPI key (shown once, keep it secret): ${apiKey}${ownerId ? `\nOwner ${ownerId} can sign in to /console.` : ""}`);
    return 0;
  }
  if (command === "create-consumer") {
    const email = typeof values.email === "string" ? values.email : "";
    const parsed = ZConsumer.safeParse({ email, password: values.password, plan: values.plan, name: values.name ?? email.split("@")[0] });
    if (!parsed.success) return fail(parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join("\n"));
    const { userId, tenantId, apiKey } = await createConsumer({ ...parsed.data, verified: values.verified === true, withApiKey: true });
    if (values.json) console.log(JSON.stringify({ user_id: userId, tenant_id: tenantId, api_key: apiKey }));
    else console.log(`Consumer ${userId} (tenant ${tenantId}) created.\nAPI key (shown once, keep it secret): ${apiKey}`);
    return 0;
  }
  return fail(command ? `unknown command ${command}` : "a command is required");
}

main(process.argv.slice(2))
  .then(async (code) => {
    await getDb().close();
    process.exit(code);
  })
  .catch(async (err: Error) => {
    console.error(err.message);
    await getDb().close().catch(() => {});
    process.exit(1);
  });
