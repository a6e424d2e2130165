import "server-only";
import { parseVerifierKey } from "@/lib/verify";
import { getConfig } from "../../config";
import { getLogIdentity } from "../../log/log-identity";
import { witnessCadenceMs } from "../../log/witnessing";

/**
 * This log's item in the witness network's log list (https://witness-network.org, format
 * `logs/v0`: `vkey`, `origin` only when it differs from the key's name, `qpd`, `contact`, in that
 * order), with comment lines a maintainer reads. The list has no bastion field: Hallmark calls
 * witnesses itself, so none is needed.
 */
export async function witnessNetworkEntry(contact: string): Promise<string> {
  const text = contact.trim();
  if (!text || /[\r\n]/.test(text)) throw new Error("--contact must be one line of text");
  const id = await getLogIdentity();
  const name = parseVerifierKey(id.verifierKey).name;
  const qpd = getConfig().witnessQpd;
  const every = witnessCadenceMs() / 1000;
  return [
    `# ${id.origin}: a Hallmark content-attestation log (${getConfig().baseUrl}), checkpoints at ${getConfig().baseUrl}/v1/log/checkpoint`,
    `# add-checkpoint at most every ${every} s per witness (HALLMARK_WITNESS_RATE=${qpd} a day), more only after a 409`,
    `vkey ${id.verifierKey}`,
    ...(name === id.origin ? [] : [`origin ${id.origin}`]),
    `qpd ${qpd}`,
    `contact ${text}`,
    "",
  ].join("\n");
}
