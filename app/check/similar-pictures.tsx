// Protections of pictures that look like the visitor's, as the similar-image lookup answers them:
// side by side what can be shown publicly (title, creator, date, distance), in honest words.
import { PDQ_MATCH_DISTANCE } from "@/lib/fingerprint/pdq-index";
import { textLink } from "../_components/ui";
import { longDate } from "../_components/verify-format";
import { type Lookup, ShownOf, VerifyLink } from "./lookup-parts";

/** How alike two pictures are from their PDQ distance (0–256; the reference counts ≤ 31 as a match). */
export function likeness(distance: number): string {
  if (distance === 0) return "looks the same";
  if (distance <= 10) return "looks nearly the same";
  if (distance <= 20) return "looks very similar";
  return "looks similar";
}

export function SimilarPictures({ lookup, preview }: { lookup: Lookup; preview: string | null }) {
  if (lookup.items.length === 0) return null;
  return (
    <section aria-labelledby="similar-list" className="mt-6">
      <div className="flex items-start gap-4">
        {preview ? (
          // biome-ignore lint/performance/noImgElement: a local object URL, never fetched or optimised by a server
          <img
            src={preview}
            alt="The file you dropped"
            className="h-24 w-24 shrink-0 rounded-lg border border-stone-200 bg-white object-contain"
          />
        ) : null}
        <div>
          <h2 id="similar-list" className="text-lg font-semibold">
            Visually similar protected pictures
          </h2>
          <p className="mt-1 text-sm text-stone-700">
            Nearest first. Each was found by comparing perceptual fingerprints (PDQ), never the pictures themselves; Hallmark never sees the
            protected pictures, only what their creators chose to show. A similar picture is not proof of copying.
          </p>
        </div>
      </div>
      <ol className="mt-3 divide-y divide-stone-200 rounded-xl border border-stone-200 bg-white" data-testid="similar-list">
        {lookup.items.map((item) => (
          <li key={item.protection_id} className="grid gap-2 px-4 py-3 sm:grid-cols-[1fr_auto] sm:items-baseline">
            <div className="min-w-0">
              <p className="font-medium">
                Visually similar to {item.title ? <span>“{item.title}”</span> : "a picture"} by{" "}
                <a className={`${textLink} underline`} href={item.creator.portfolio_url}>
                  {item.creator.name}
                </a>
                , protected on {longDate(item.protected_at)}
              </p>
              <p className="text-sm text-stone-700">
                Yours {likeness(item.distance ?? 0)}: PDQ distance {item.distance} of 256 bits ({PDQ_MATCH_DISTANCE} or less counts as
                similar).
              </p>
            </div>
            <VerifyLink item={item} />
          </li>
        ))}
      </ol>
      <ShownOf shown={lookup.items.length} total={lookup.total} which="nearest" />
    </section>
  );
}
