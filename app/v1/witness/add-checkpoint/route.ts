import { apiRoute } from "@/server/http/api-route";
import { otherMethods } from "@/server/http/method-not-allowed";
import { witnessRouter } from "@/server/api/routers/witness";

/** 200: the cosignature lines as text; 409: the size held, as text/x.tlog.size (C2SP tlog-witness). */
export const POST = apiRoute(witnessRouter.addCheckpoint, (answer) =>
  answer.status === 200
    ? { body: answer.lines }
    : { body: `${answer.size}\n`, status: 409, headers: { "content-type": "text/x.tlog.size" } },
);
export const { GET, PUT, PATCH, DELETE } = otherMethods("POST");
