// Operator commands. Run through `npm run admin -- <command>`.
//   create-org --name <name> [--json]   an organisation and an API key holding every scope
import { parseArgs } from "node:util";
import { createOrganization } from "@/server/domain/tenants";
import { getDb } from "@/server/db";

const USAGE = "usage: npm run admin -- create-org --name <name> [--json]";

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { name: { type: "string" }, json: { type: "boolean", default: false } },
    strict: true,
  });
  if (command !== "create-org") {
    console.error(USAGE);
    return 2;
  }
  const name = values.name?.trim();
  if (!name || name.length > 200) {
    console.error("--name is required (1 to 200 characters)\n" + USAGE);
    return 2;
  }
  const { tenantId, apiKey } = await createOrganization({ name });
  if (values.json) console.log(JSON.stringify({ tenant_id: tenantId, api_key: apiKey }));
  else console.log(`Organisation ${tenantId} created.\nAPI key (shown once, keep it secret): ${apiKey}`);
  return 0;
}

main(process.argv.slice(2))
  .then(async (code) => {
    await getDb().close();
    process.exit(code);
  })
  .catch((err: Error) => {
    console.error(err.message);
    process.exit(1);
  });
