"use client";
// The badge of a protection and the snippets that embed it elsewhere (HTML and Markdown): the
// image links to the verify page, where anyone can check the proof.
import { useId, useState } from "react";
import { CopyButton } from "@/app/_components/copy-button";
import { cx } from "@/app/_components/ui";

type Theme = "light" | "dark";

export function badgeSnippets(verifyUrl: string, protectionId: string, theme: Theme) {
  const src = `${new URL(verifyUrl).origin}/v1/protections/${protectionId}/badge.svg${theme === "dark" ? "?theme=dark" : ""}`;
  const alt = "Protected with Hallmark: verify this work";
  return {
    src,
    html: `<a href="${verifyUrl}"><img src="${src}" alt="${alt}" height="20"></a>`,
    markdown: `[![${alt}](${src})](${verifyUrl})`,
  };
}

export function BadgeEmbed({ protectionId, verifyUrl, name }: { protectionId: string; verifyUrl: string; name: string }) {
  const id = useId();
  const [theme, setTheme] = useState<Theme>("light");
  const { src, html, markdown } = badgeSnippets(verifyUrl, protectionId, theme);
  return (
    <details className="group px-4 pb-4 sm:px-5">
      <summary className="cursor-pointer rounded text-sm font-medium text-teal-800 underline-offset-2 hover:underline focus-visible:outline focus-visible:outline-2 focus-visible:outline-teal-700">
        Badge for your site<span className="sr-only"> ({name})</span>
      </summary>
      <div className="mt-3 space-y-3">
        <fieldset className="flex flex-wrap items-center gap-4 text-sm">
          <legend className="sr-only">Badge colours for {name}</legend>
          {(["light", "dark"] as const).map((t) => (
            <label key={t} className="flex items-center gap-2">
              <input type="radio" name={`${id}-theme`} value={t} checked={theme === t} onChange={() => setTheme(t)} />
              For a {t} page
            </label>
          ))}
        </fieldset>
        <div className={cx("inline-block rounded-lg p-3", theme === "dark" ? "bg-stone-900" : "border border-stone-200 bg-white")}>
          {/* biome-ignore lint/performance/noImgElement: an SVG from the API, shown exactly as it embeds elsewhere */}
          <img src={new URL(src).pathname + new URL(src).search} alt={`Badge preview: protected with Hallmark (${theme})`} height={20} />
        </div>
        {(
          [
            ["HTML", html],
            ["Markdown", markdown],
          ] as const
        ).map(([label, text]) => (
          <div key={label}>
            <label htmlFor={`${id}-${label}`} className="block text-sm font-medium text-stone-800">
              {label}
            </label>
            <div className="mt-1 flex flex-col gap-2 sm:flex-row sm:items-start">
              <textarea
                id={`${id}-${label}`}
                readOnly
                rows={2}
                value={text}
                className="w-full min-w-0 flex-1 rounded-lg border border-stone-300 bg-stone-50 px-3 py-2 font-mono text-xs text-stone-900"
              />
              <CopyButton value={text} label={`Copy ${label}`} />
            </div>
          </div>
        ))}
      </div>
    </details>
  );
}
