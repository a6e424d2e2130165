import "server-only";
import { router } from "../trpc";

/** Sign-up, e-mail verification, login and logout (issue 3, accounts slice). */
export const consumerAuthRouter = router({});
