import type { Metadata, Viewport } from "next";
import type { ReactNode } from "react";
import { getConfig } from "@/server/config";
import { SiteHeader } from "./_components/site-header";
import { Providers } from "./_trpc/client";
import "./globals.css";

/** metadataBase: the public base URL, so Open Graph images and links are absolute URLs of this deployment. */
export const generateMetadata = (): Metadata => ({
  metadataBase: new URL(getConfig().baseUrl),
  title: { default: "Hallmark — prove your work existed, and that it is yours", template: "%s · Hallmark" },
  description: "Hash a file in your browser, get a signed, publicly logged attestation, and let anyone check it without trusting us.",
  // The files in public/ (scripts/make-icons.mjs renders them from icon.svg).
  icons: {
    icon: [
      { url: "/favicon.ico", sizes: "48x48" },
      { url: "/icon.svg", type: "image/svg+xml" },
    ],
    apple: "/apple-touch-icon.png",
  },
  manifest: "/manifest.webmanifest",
});

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#115e59" };

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="flex min-h-screen flex-col bg-stone-50 text-stone-900 antialiased">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2"
        >
          Skip to content
        </a>
        <Providers>
          <SiteHeader />
          <main id="main" className="mx-auto w-full max-w-6xl flex-1 px-4 py-8 sm:px-6 sm:py-10">
            {children}
          </main>
          <footer className="border-t border-stone-200 py-6 text-center text-sm text-stone-600">
            Hallmark · attestations in an append-only, publicly verifiable log ·{" "}
            <a className="underline" href="/v1/log">
              log key
            </a>
          </footer>
        </Providers>
      </body>
    </html>
  );
}
