import "server-only";
import path from "node:path";
import * as fontkit from "fontkit";
import PDFDocument from "pdfkit";
import QRCode from "qrcode";
import { type CertificateData, cosignerNames } from "./certificate";

/**
 * DejaVu (npm `dejavu-fonts-ttf`), embedded as a subset: Latin, Greek, Cyrillic and most symbols
 * render as written; scripts it lacks (CJK among them) show as empty boxes. The server runs from
 * the repository's root (scripts/serve.mjs), where node_modules is.
 */
const FONTS = path.join(process.cwd(), "node_modules", "dejavu-fonts-ttf", "ttf");
const FONT_FILES = { sans: "DejaVuSans.ttf", bold: "DejaVuSans-Bold.ttf", mono: "DejaVuSansMono.ttf" } as const;
/** Parsed once per process: parsing the three fonts costs more than drawing a whole certificate. */
let fonts: Record<keyof typeof FONT_FILES, fontkit.Font> | undefined;
const loadFonts = () =>
  (fonts ??= Object.fromEntries(
    Object.entries(FONT_FILES).map(([name, file]) => [name, fontkit.openSync(path.join(FONTS, file)) as fontkit.Font]),
  ) as Record<keyof typeof FONT_FILES, fontkit.Font>);
const INK = "#1c1917";
const MUTED = "#57534e";
const ACCENT = "#115e59";
const MARGIN = 56;

const utc = (iso: string) =>
  `${iso
    .replace("T", " ")
    .replace(/\.\d+Z$/, "")
    .replace(/Z$/, "")} UTC`;
const sizeOf = (n: number) =>
  n < 1024 ? `${n} bytes` : n < 1024 ** 2 ? `${(n / 1024).toFixed(1)} KiB` : `${(n / 1024 ** 2).toFixed(1)} MiB`;

/**
 * A creator's text as document metadata: pdfkit writes it into the PDF/A XMP packet unescaped,
 * so the characters that are markup there become look-alikes, and control characters go.
 */
const metadataText = (text: string) =>
  text
    .replace(/[\u0000-\u001f\u007f]/g, " ")
    .replace(/&/g, "＆")
    .replace(/</g, "‹")
    .replace(/>/g, "›");

/** A QR code of `text` as vector squares (one path, filled once): crisp at any zoom, and cheaper than a PNG. */
function drawQr(doc: PDFKit.PDFDocument, text: string, x: number, y: number, size: number) {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: "M" });
  const quiet = 2;
  const cell = size / (modules.size + 2 * quiet);
  doc.rect(x, y, size, size).fill("#ffffff");
  for (let r = 0; r < modules.size; r++)
    for (let c = 0; c < modules.size; c++) if (modules.get(r, c)) doc.rect(x + (c + quiet) * cell, y + (r + quiet) * cell, cell, cell);
  doc.fill(INK);
}

/** How to check the certificate without Hallmark: what the attachments are, then the steps. */
function howToCheck(d: CertificateData): { intro: string; steps: [string, string | null][]; outro: string } {
  const id = d.protection.protection_id;
  return {
    intro:
      "This PDF carries its own proof as two attachments: proof-bundle.json (the signed attestation, its issuer's key, " +
      `an inclusion proof and the log's signed checkpoint) and ${id}.tlog-proof (the same proof in the C2SP tlog-proof ` +
      "format, with the witnesses' cosignatures). Anyone can check it offline:",
    steps: [
      ["Compute the SHA-256 of your file and compare it with the hash above:", "sha256sum <your file>"],
      [
        "Get the log's public key from the log (/v1/log) or from anyone who follows it, never from this document, and " +
          "verify the certificate with Hallmark's open-source verifier:",
        "npm run verify -- certificate.pdf --log-key log.pem",
      ],
      ["Or extract the attachments (pdfdetach -saveall) and check the .tlog-proof with any C2SP tlog-proof verifier.", null],
    ],
    outro: "The attachments, not this page, are the proof.",
  };
}

/**
 * The certificate of a protection as a PDF/A-3b document (pdfkit): the work and its creator when
 * public, the file's SHA-256, time, log entry, issuer and key, the checkpoint and its witnesses,
 * a QR code of the verify URL, how to check it, and the proof bundle and tlog-proof embedded as
 * attachments so the file verifies by itself. A private protection's page shows only what its
 * verify link shows: `d.protection` has nothing else.
 */
export async function certificatePdf(d: CertificateData): Promise<Buffer> {
  const p = d.protection;
  const sth = d.proof_bundle.signed_tree_head;
  const workTitle = p.title ?? "A protected work";
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    pdfVersion: "1.7",
    subset: "PDF/A-3b",
    lang: "en",
    displayTitle: true,
    info: {
      Title: `Certificate of protection: ${metadataText(workTitle)}`,
      ...(p.creator ? { Author: metadataText(p.creator.name) } : {}),
      Subject: `SHA-256 ${p.content_hash}, entry ${p.log_index} of the Hallmark log ${sth.origin}`,
      Creator: "Hallmark",
    },
  });
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  for (const [name, font] of Object.entries(loadFonts())) doc.registerFont(name, font as unknown as Buffer);

  const width = doc.page.width - 2 * MARGIN;
  const qrSize = 118;
  const textWidth = width - qrSize - 20;

  doc.font("bold").fontSize(10).fillColor(ACCENT).text("HALLMARK", { characterSpacing: 2 });
  doc.moveDown(0.3);
  doc.font("bold").fontSize(24).fillColor(INK).text("Certificate of protection", { width: textWidth });
  doc.moveDown(0.4);
  doc
    .font("sans")
    .fontSize(10.5)
    .fillColor(MUTED)
    .text(
      `The file whose SHA-256 is given below was protected on ${utc(p.protected_at)} and recorded as entry ${p.log_index} ` +
        `of the Hallmark transparency log ${sth.origin}.`,
      { width: textWidth, lineGap: 2 },
    );
  const leadEnd = doc.y;
  const qrTop = MARGIN;
  drawQr(doc, p.verify_url, MARGIN + width - qrSize, qrTop, qrSize);
  doc.link(MARGIN + width - qrSize, qrTop, qrSize, qrSize, p.verify_url);
  doc
    .font("sans")
    .fontSize(8)
    .fillColor(MUTED)
    .text("Scan to verify", MARGIN + width - qrSize, qrTop + qrSize + 2, {
      width: qrSize,
      align: "center",
    });
  doc.x = MARGIN;
  doc.y = Math.max(leadEnd, doc.y) + 14;

  const section = (title: string) => {
    doc.moveDown(0.6);
    doc.font("bold").fontSize(12).fillColor(ACCENT).text(title, MARGIN, doc.y, { width });
    doc
      .moveTo(MARGIN, doc.y + 2)
      .lineTo(MARGIN + width, doc.y + 2)
      .lineWidth(0.5)
      .strokeColor("#d6d3d1")
      .stroke();
    doc.moveDown(0.5);
  };
  const LABEL = 118;
  /** A labelled value; `link`: the value is a URL, clickable wherever the line wraps it. */
  const row = (label: string, value: string, font: "sans" | "mono" = "sans", link = false) => {
    const y = doc.y;
    doc
      .font("sans")
      .fontSize(9.5)
      .fillColor(MUTED)
      .text(label, MARGIN, y, { width: LABEL - 8 });
    const after = doc.y;
    doc
      .font(font)
      .fontSize(font === "mono" ? 9 : 10)
      .fillColor(INK)
      .text(value, MARGIN + LABEL, y, { width: width - LABEL, lineGap: 1, ...(link ? { link: value } : {}) });
    doc.y = Math.max(after, doc.y) + 4;
  };

  section("The work");
  if (p.creator) {
    row("Title", workTitle);
    row("Creator", p.creator.name);
    row("Category", p.category);
    if (p.file_name)
      row("File", [p.file_name, p.content_type, p.file_size !== null ? sizeOf(p.file_size) : null].filter(Boolean).join(" · "));
    if (p.description) row("Description", p.description.length > 600 ? `${p.description.slice(0, 600)}…` : p.description);
    row("Portfolio", p.creator.portfolio_url, "sans", true);
  } else {
    row("Title", workTitle);
    row("Details", "Its creator keeps them private: this certificate shows only what its verify link shows.");
  }

  section("The proof");
  row("SHA-256 of the file", p.content_hash, "mono");
  row("Protected at", utc(p.protected_at));
  row("Log entry", `${p.log_index} (of ${d.proof_bundle.inclusion_proof.tree_size} in the checkpoint below)`);
  row("Attestation", d.proof_bundle.attestation.id, "mono");
  row("Issuer", `${p.issuer.name} (${p.issuer.id})`);
  row("Issuer key", `${d.proof_bundle.key.algorithm} ${d.proof_bundle.key.kid}`, "mono");
  row("Checkpoint", `${sth.origin}, size ${sth.tree_size}, ${utc(sth.timestamp)}`);
  row("Root hash", sth.root_hash, "mono");
  const witnesses = cosignerNames(sth.checkpoint, sth.origin);
  row("Witnesses", witnesses.length ? `Cosigned by ${witnesses.join(", ")}` : "Not yet cosigned by a witness");
  const t = d.timestamped;
  if (t) row("Time-stamped", `Existed no later than ${utc(t.existed_by)}, per ${t.tsa} (an RFC 3161 token in the attached bundle)`);
  row("Verify online", p.verify_url, "sans", true);

  section("Check it without Hallmark");
  const how = howToCheck(d);
  doc.font("sans").fontSize(9.5).fillColor(INK).text(how.intro, MARGIN, doc.y, { width, lineGap: 2 });
  how.steps.forEach(([say, command], i) => {
    doc.moveDown(0.4);
    doc
      .font("sans")
      .fontSize(9.5)
      .fillColor(INK)
      .text(`${i + 1}. ${say}`, MARGIN + 8, doc.y, { width: width - 8, lineGap: 2 });
    if (command)
      doc
        .font("mono")
        .fontSize(9)
        .fillColor(ACCENT)
        .text(command, MARGIN + 22, doc.y + 2, { width: width - 22 });
  });
  doc.moveDown(0.5);
  doc.font("sans").fontSize(9.5).fillColor(MUTED).text(how.outro, MARGIN, doc.y, { width });

  const created = new Date(p.protected_at);
  // PDF/A-3 names each attachment's relation to the document (AFRelationship); @types/pdfkit lags pdfkit here.
  const attach = (data: Buffer, options: PDFKit.Mixins.PDFAttachmentOptions & { relationship: "Supplement" }) => doc.file(data, options);
  attach(Buffer.from(`${JSON.stringify(d.proof_bundle, null, 2)}\n`), {
    name: "proof-bundle.json",
    type: "application/json",
    description: "The proof bundle: attestation, issuer key, inclusion proof and signed checkpoint",
    relationship: "Supplement",
    creationDate: created,
    modifiedDate: created,
  });
  attach(Buffer.from(d.tlog_proof), {
    name: `${p.protection_id}.tlog-proof`,
    type: "text/plain",
    description: "The C2SP tlog-proof with the witnesses' cosignatures",
    relationship: "Supplement",
    creationDate: created,
    modifiedDate: created,
  });
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}
