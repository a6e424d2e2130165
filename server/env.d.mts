export type HallmarkEnv = {
  nodeEnv: string;
  port: number;
  dataDir: string;
  databaseUrl: string;
  dbKind: "sqlite" | "postgres";
  baseUrl: string;
  logOrigin: string;
  logOriginExplicit: boolean;
  masterKey: string | undefined;
};
export function readEnv(source?: Record<string, string | undefined>): HallmarkEnv;
