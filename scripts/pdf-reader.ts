// A PDF's attached files (its EmbeddedFiles) and its pages' text, read with Mozilla's PDF.js: the
// verifier opens a certificate with a reader Hallmark did not write.

export const PDF_MAGIC = "%PDF-";
/** A certificate is tens of kilobytes; anything near this is not one. */
export const MAX_PDF_BYTES = 16 * 1024 * 1024;

export interface PdfContents {
  attachments: Map<string, Uint8Array>;
  /** Every page's text, its runs joined by single spaces. */
  text: string;
}

export async function readPdf(bytes: Uint8Array): Promise<PdfContents> {
  // Loaded here, not at the top: PDF.js is most of what the verifier would load for any file.
  const { getDocument } = await import("pdfjs-dist/legacy/build/pdf.mjs");
  const doc = await getDocument({ data: bytes, isEvalSupported: false, verbosity: 0 }).promise;
  try {
    const attachments = new Map<string, Uint8Array>();
    const found = ((await doc.getAttachments()) ?? {}) as Record<string, { filename: string; content: Uint8Array }>;
    for (const a of Object.values(found)) attachments.set(a.filename, a.content);
    const runs: string[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      for (const item of (await page.getTextContent()).items) if ("str" in item) runs.push(item.str);
    }
    return { attachments, text: runs.join(" ").replace(/\s+/g, " ") };
  } finally {
    await doc.destroy();
  }
}
