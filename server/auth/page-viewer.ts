import "server-only";
import { cookies } from "next/headers";
import { redirect } from "next/navigation";
import { AppError } from "../domain/errors";
import { authenticateSessionToken, SESSION_COOKIE } from "../domain/sessions";
import { getViewer, type Viewer } from "../domain/viewer";

/** The signed-in user of a server-rendered page, or null (no cookie, or an ended session). */
export async function currentViewer(): Promise<Viewer | null> {
  const store = await cookies();
  const token = store.get(`__Secure-${SESSION_COOKIE}`)?.value ?? store.get(SESSION_COOKIE)?.value;
  if (!token) return null;
  try {
    return await getViewer(await authenticateSessionToken(token));
  } catch (err) {
    if (err instanceof AppError) return null;
    throw err;
  }
}

/** The signed-in user, else a redirect to the login page (back to `path` afterwards). */
export async function requireViewer(path: string, realm?: Viewer["realm"]): Promise<Viewer> {
  const viewer = await currentViewer();
  if (!viewer) redirect(`/login?next=${encodeURIComponent(path)}`);
  if (realm && viewer.realm !== realm) redirect(viewer.realm === "organization" ? "/console" : "/dashboard");
  return viewer;
}
