import "server-only";
import { createHash, randomBytes } from "node:crypto";
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { parseTimestampToken } from "@/lib/verify/rfc3161";
import { readCappedBody } from "../capped-body";

const ID_SHA256 = "2.16.840.1.101.3.4.2.1";
const MAX_REPLY_BYTES = 64 * 1024;
/** PKIFailureInfo bit names (RFC 3161 §2.4.2), for the error a refusal becomes. */
const FAILURES: Record<number, string> = {
  0: "badAlg",
  2: "badRequest",
  5: "badDataFormat",
  14: "timeNotAvailable",
  15: "unacceptedPolicy",
  16: "unacceptedExtension",
  17: "addInfoNotAvailable",
  25: "systemFailure",
};

/** A time-stamping authority that did not grant a usable token: down, refusing, or answering nonsense. */
export class TsaError extends Error {
  override name = "TsaError";
}

function failureNames(info: pkijs.PKIStatusInfo): string {
  const bits = info.failInfo ? new Uint8Array(info.failInfo.valueBlock.valueHexView) : new Uint8Array();
  const names: string[] = [];
  bits.forEach((byte, i) => {
    for (let b = 0; b < 8; b++) if (byte & (0x80 >> b)) names.push(FAILURES[i * 8 + b] ?? `bit ${i * 8 + b}`);
  });
  return names.join(", ");
}

/**
 * Asks an RFC 3161 TSA over HTTP (§3.4) to time-stamp the SHA-256 of `data`, and answers the
 * TimeStampToken (DER) once it is granted and is the token asked for: over this imprint, with this
 * request's nonce. Whether its signer is a trusted TSA is for the verifier (lib/verify/rfc3161.ts)
 * with a pinned certificate. Throws a TsaError for anything else.
 */
export async function requestTimestamp(url: string, data: Uint8Array, timeoutMs = 10_000): Promise<Uint8Array> {
  const digest = createHash("sha256").update(data).digest();
  const nonce = randomBytes(8);
  nonce[0] = (nonce[0]! & 0x7f) | 1; // a positive INTEGER in minimal DER: no leading zero byte
  const request = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: ID_SHA256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: digest }),
    }),
    nonce: new asn1js.Integer({ valueHex: nonce }),
    certReq: true,
  });
  let res: Response;
  try {
    res = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/timestamp-query", accept: "application/timestamp-reply" },
      body: new Uint8Array(request.toSchema().toBER()),
      signal: AbortSignal.timeout(timeoutMs),
      redirect: "error",
    });
  } catch (err) {
    throw new TsaError(`the TSA did not answer: ${(err as Error).message}`);
  }
  if (!res.ok) {
    await res.body?.cancel();
    throw new TsaError(`the TSA answered HTTP ${res.status}`);
  }
  if (Number(res.headers.get("content-length") ?? 0) > MAX_REPLY_BYTES) {
    await res.body?.cancel();
    throw new TsaError("the TSA's answer is too large");
  }
  const body = new Uint8Array(await readCappedBody(res, MAX_REPLY_BYTES, () => new TsaError("the TSA's answer is too large")));
  if (!res.headers.get("content-type")?.startsWith("application/timestamp-reply"))
    throw new TsaError(`the TSA answered ${res.headers.get("content-type") ?? "no content type"}, not application/timestamp-reply`);
  let reply: pkijs.TimeStampResp;
  let info: pkijs.TSTInfo;
  try {
    const asn = asn1js.fromBER(body);
    if (asn.offset !== body.byteLength) throw new Error("not DER");
    reply = new pkijs.TimeStampResp({ schema: asn.result });
  } catch (err) {
    throw new TsaError(`the TSA's answer is not a TimeStampResp: ${(err as Error).message}`);
  }
  const status = reply.status.status;
  if (status !== 0 && status !== 1) {
    const why = reply.status.statusStrings?.map((s) => s.valueBlock.value).join("; ");
    throw new TsaError(
      `the TSA refused (status ${status}${why ? `: ${why}` : ""}${reply.status.failInfo ? `; ${failureNames(reply.status)}` : ""})`,
    );
  }
  const token = reply.timeStampToken;
  if (!token) throw new TsaError("the TSA granted no token");
  const der = new Uint8Array(token.toSchema().toBER());
  try {
    ({ info } = parseTimestampToken(der));
  } catch (err) {
    throw new TsaError(`the TSA's token is malformed: ${(err as Error).message}`);
  }
  const imprint = Buffer.from(info.messageImprint.hashedMessage.valueBlock.valueHexView);
  if (info.messageImprint.hashAlgorithm.algorithmId !== ID_SHA256 || !imprint.equals(digest))
    throw new TsaError("the TSA's token is over other bytes than those sent");
  const answeredNonce = info.nonce ? Buffer.from(info.nonce.valueBlock.valueHexView) : null;
  if (!answeredNonce || answeredNonce.toString("hex").replace(/^0+/, "") !== nonce.toString("hex").replace(/^0+/, ""))
    throw new TsaError("the TSA's token does not carry this request's nonce");
  return der;
}
