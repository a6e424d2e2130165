// RFC 3161 time-stamp tokens: proof from a time-stamping authority (TSA) that some bytes existed
// no later than the time it signed. Parsed and checked with PKI.js (CMS, X.509, chain building)
// and WebCrypto, so it runs in browsers and in Node alike; the rules RFC 3161 sets beyond CMS
// (the imprint, the TSTInfo content type, the signer's critical timeStamping key purpose) are
// checked here.
import * as asn1js from "asn1js";
import * as pkijs from "pkijs";
import { VerifyError } from "./errors";

const ID_SIGNED_DATA = "1.2.840.113549.1.7.2";
const ID_CT_TSTINFO = "1.2.840.113549.1.9.16.1.4";
const ID_SHA256 = "2.16.840.1.101.3.4.2.1";
const ID_EXT_KEY_USAGE = "2.5.29.37";
const ID_KP_TIME_STAMPING = "1.3.6.1.5.5.7.3.8";
const ID_COMMON_NAME = "2.5.4.3";
/** A token is a few kilobytes (its certificates included); far more is not one. */
export const MAX_TIMESTAMP_TOKEN_BYTES = 64 * 1024;

export interface TimestampVerification {
  /** When the TSA says it saw the bytes: they existed no later than this. */
  genTime: Date;
  /** The signing TSA certificate's common name (else its whole subject). */
  tsa: string;
  /** The token's serial number, hex. */
  serial: string;
  /** The TSA policy the token was issued under (an OID). */
  policy: string;
}

const fail = (message: string): never => {
  throw new VerifyError("timestamp_invalid", message);
};

function parseDer(bytes: Uint8Array, what: string): asn1js.AsnType {
  const parsed = asn1js.fromBER(bytes);
  if (parsed.offset === -1 || parsed.offset !== bytes.byteLength) throw new VerifyError("malformed_timestamp", `${what} is not DER`);
  return parsed.result;
}

/** A certificate from PEM text or DER bytes. */
export function parseCertificate(input: string | Uint8Array): pkijs.Certificate {
  try {
    const der =
      typeof input === "string"
        ? Uint8Array.from(atob(input.replace(/-----(BEGIN|END) CERTIFICATE-----/g, "").replace(/\s+/g, "")), (c) => c.charCodeAt(0))
        : input;
    return new pkijs.Certificate({ schema: parseDer(der, "the certificate") });
  } catch (err) {
    if (err instanceof VerifyError) throw err;
    throw new VerifyError("malformed_timestamp", `not an X.509 certificate: ${(err as Error).message}`);
  }
}

/** Every certificate in a PEM bundle (a TSA's chain, or several pinned roots). */
export function parseCertificates(pem: string): pkijs.Certificate[] {
  const blocks = pem.match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (blocks.length === 0) throw new VerifyError("malformed_timestamp", "no PEM certificate found");
  return blocks.map((b) => parseCertificate(b));
}

const hex = (b: ArrayBuffer | Uint8Array) => Array.from(new Uint8Array(b), (x) => x.toString(16).padStart(2, "0")).join("");

function nameOf(cert: pkijs.Certificate): string {
  const rdns = cert.subject.typesAndValues;
  const cn = rdns.find((t) => t.type === ID_COMMON_NAME);
  if (cn) return String(cn.value.valueBlock.value);
  return rdns.map((t) => `${t.type}=${t.value.valueBlock.value}`).join(", ");
}

/** RFC 3161 §2.3: the TSA's certificate carries one key purpose, timeStamping, marked critical. */
function requireTimeStampingPurpose(cert: pkijs.Certificate): void {
  const ext = cert.extensions?.find((e) => e.extnID === ID_EXT_KEY_USAGE);
  if (!ext?.critical) fail(`the signer certificate (${nameOf(cert)}) has no critical extended key usage`);
  const purposes = (ext!.parsedValue as pkijs.ExtKeyUsage | undefined)?.keyPurposes ?? [];
  if (purposes.length !== 1 || purposes[0] !== ID_KP_TIME_STAMPING)
    fail(`the signer certificate (${nameOf(cert)}) is not for time-stamping only (key purposes: ${purposes.join(", ") || "none"})`);
}

const derOf = (cert: pkijs.Certificate) => hex(cert.toSchema().toBER());

/** A token carries its signer and perhaps its chain; more than this is not a TSA's. */
const MAX_TOKEN_CERTIFICATES = 8;
/** Certificates from the signer to a pinned one, at most. */
const MAX_PATH = 5;
const ID_BASIC_CONSTRAINTS = "2.5.29.19";

const validAt = (cert: pkijs.Certificate, at: Date) => at >= cert.notBefore.value && at <= cert.notAfter.value;
const isCa = (cert: pkijs.Certificate) =>
  Boolean((cert.extensions?.find((e) => e.extnID === ID_BASIC_CONSTRAINTS)?.parsedValue as pkijs.BasicConstraints | undefined)?.cA);

/**
 * The signer's path to a pinned certificate, built here rather than by PKI.js (whose path
 * building follows certificates that sign each other without end): from the signer, each step
 * to a CA certificate (from the pins or the token) whose subject is the issuer's name and whose
 * key verifies the certificate, each valid at `at`, until a pinned certificate is reached. The
 * walk is bounded by MAX_PATH steps over a bounded pool and never revisits a certificate.
 */
async function requirePinnedPath(signer: pkijs.Certificate, pool: pkijs.Certificate[], trusted: pkijs.Certificate[], at: Date) {
  const pinned = new Set(trusted.map(derOf));
  const seen = new Set<string>();
  let cert = signer;
  for (let depth = 0; depth < MAX_PATH; depth++) {
    const der = derOf(cert);
    if (!validAt(cert, at)) fail(`the certificate ${nameOf(cert)} was not valid at the token's time`);
    if (pinned.has(der)) return;
    seen.add(der);
    let issuer: pkijs.Certificate | undefined;
    for (const candidate of [...trusted, ...pool]) {
      const cd = derOf(candidate);
      if (seen.has(cd) || !candidate.subject.isEqual(cert.issuer) || !isCa(candidate)) continue;
      if (await cert.verify(candidate).catch(() => false)) {
        issuer = candidate;
        break;
      }
    }
    if (!issuer) fail("the token's signer does not chain to a pinned certificate");
    cert = issuer!;
  }
  fail("the token's certificate chain is longer than a TSA's");
}

/**
 * The CMS signature (over the signed attributes, whose message digest is the TSTInfo's) verified
 * by PKI.js, then the signer trusted as of genTime: its path leads to a pinned certificate, or it
 * is itself pinned.
 */
async function verifySigner(signed: pkijs.SignedData, data: Uint8Array, trusted: pkijs.Certificate[], genTime: Date) {
  const pool = (signed.certificates ?? []).filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate);
  if ((signed.certificates?.length ?? 0) > MAX_TOKEN_CERTIFICATES) fail("the token carries more certificates than a TSA's");
  // PKI.js checks the imprint again against the bytes (hence `data`); no chain: that is ours to build.
  const params = { signer: 0, data: Uint8Array.from(data).buffer, checkDate: genTime, checkChain: false, extendedMode: true as const };
  const r = await signed.verify(params).catch((e: Error) => fail(`the token's signature does not verify: ${e.message}`));
  const signer = r.signerCertificate;
  if (!r.signatureVerified || !signer) fail("the token's signature does not verify");
  await requirePinnedPath(signer!, pool, trusted, genTime);
  return signer!;
}

/**
 * A TimeStampToken's (DER) SignedData and TSTInfo, its structure checked and nothing else: a
 * VerifyError `malformed_timestamp` when it is not one.
 */
export function parseTimestampToken(token: Uint8Array): { signed: pkijs.SignedData; info: pkijs.TSTInfo } {
  if (token.byteLength > MAX_TIMESTAMP_TOKEN_BYTES) throw new VerifyError("malformed_timestamp", "the token is too large");
  try {
    const content = new pkijs.ContentInfo({ schema: parseDer(token, "the token") });
    if (content.contentType !== ID_SIGNED_DATA) throw new Error("its content is not CMS SignedData");
    const signed = new pkijs.SignedData({ schema: content.content });
    if (signed.encapContentInfo.eContentType !== ID_CT_TSTINFO) throw new Error("it does not encapsulate a TSTInfo");
    const eContent = signed.encapContentInfo.eContent;
    if (!eContent) throw new Error("its TSTInfo is missing");
    return { signed, info: new pkijs.TSTInfo({ schema: parseDer(new Uint8Array(eContent.getValue()), "the TSTInfo") }) };
  } catch (err) {
    if (err instanceof VerifyError) throw err;
    throw new VerifyError("malformed_timestamp", `not an RFC 3161 time-stamp token: ${(err as Error).message}`);
  }
}

/** The token's SignedData and TSTInfo, its single signer and its imprint over `data` checked. */
async function openToken(token: Uint8Array, data: Uint8Array): Promise<{ signed: pkijs.SignedData; info: pkijs.TSTInfo }> {
  const { signed, info } = parseTimestampToken(token);
  if (signed.signerInfos.length !== 1) fail(`the token has ${signed.signerInfos.length} signers, not one`);
  if (info.messageImprint.hashAlgorithm.algorithmId !== ID_SHA256) fail("the token's imprint is not SHA-256");
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", data as Uint8Array<ArrayBuffer>));
  if (hex(info.messageImprint.hashedMessage.valueBlock.valueHexView) !== hex(digest))
    fail("the token's imprint is not the SHA-256 of the timestamped bytes");
  return { signed, info };
}

const resultOf = (info: pkijs.TSTInfo, signer: pkijs.Certificate): TimestampVerification => ({
  genTime: info.genTime,
  tsa: nameOf(signer),
  serial: hex(info.serialNumber.valueBlock.valueHexView),
  policy: info.policy,
});

/**
 * Checks a TimeStampToken (DER) over `data`: its TSTInfo's imprint is the SHA-256 of `data`, its
 * CMS signature verifies, and the signer's certificate chains, as of the token's time, to one of
 * `trusted` (the pinned TSA certificate or its root) and is a time-stamping certificate. Throws a
 * VerifyError (`malformed_timestamp` or `timestamp_invalid`) naming what failed.
 */
export async function verifyTimestampToken(
  token: Uint8Array,
  data: Uint8Array,
  trusted: pkijs.Certificate[],
): Promise<TimestampVerification> {
  const { signed, info } = await openToken(token, data);
  const signer = await verifySigner(signed, data, trusted, info.genTime);
  requireTimeStampingPurpose(signer);
  return resultOf(info, signer);
}
