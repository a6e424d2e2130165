import { defineConfig } from "prisma/config";
import { PrismaPg } from "@prisma/adapter-pg";
import pg from "pg";
// Prisma 6.19's JS schema engine cannot read pg's `name`/`char` columns in its own catalogue
// queries (an open Prisma bug); present them as text. CLI-only: the app never loads this file.
const NAME_OID = 19,
  CHAR_OID = 18,
  TEXT_OID = 25;
const proto = pg.Result.prototype as unknown as { addFields(fields: { dataTypeID: number }[]): void };
const addFields = proto.addFields;
proto.addFields = function (fields: { dataTypeID: number }[]) {
  for (const f of fields) if (f.dataTypeID === NAME_OID || f.dataTypeID === CHAR_OID) f.dataTypeID = TEXT_OID;
  return addFields.call(this, fields);
};
export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: "postgres/schema.prisma",
  migrations: { path: "postgres/migrations" },
  async adapter() {
    return new PrismaPg({ connectionString: process.env.DATABASE_URL });
  },
});
