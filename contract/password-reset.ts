import { z } from 'zod';
import { emailText, emailInput } from './common';
import { newPasswordText } from './students';

// The limits without zod (the web app imports them from there).
export * from './password-reset-limits';

// Apart from contract/auth.ts, whose values the first load of /login carries: these come with the
// "Passwort vergessen?" pages' chunk only (DESIGN.md's 170 KB budget of /login).
/**
 * "Passwort vergessen?" (docs/decisions/password-reset.md). The link's secret has the form of an
 * invitation's (32 random bytes, base64url); it is valid PASSWORD_RESET_VALID_MINUTES and once.
 */
export const PASSWORD_RESET_VALID_MINUTES = 60;

/** POST /api/password-reset: the address to send the link to. */
export const passwordResetRequestBody = z.object({
  email: emailInput(254),
});
export type PasswordResetRequestBody = z.infer<typeof passwordResetRequestBody>;

/**
 * The answer to every well-formed request, whether an account has the address or not. `mailed`
 * false: the server sends no e-mails at all (no SMTP server configured), so the message says to ask
 * the teacher or the school.
 */
export const passwordResetRequested = z.object({ message: z.string(), mailed: z.boolean() }).meta({ id: 'PasswordResetRequested' });
export type PasswordResetRequested = z.infer<typeof passwordResetRequested>;

export const passwordResetTokenParams = z.object({ token: z.string().max(100) });

/** GET /api/password-reset/{token}: whose password the link sets, and until when. */
export const passwordResetPublic = z
  .object({ name: z.string(), email: emailText, expires_at: z.string() })
  .meta({ id: 'PasswordResetPublic' });
export type PasswordResetPublic = z.infer<typeof passwordResetPublic>;

/** POST /api/password-reset/{token}: the new password (as for an invitation). */
export const passwordResetBody = z.object({ password: newPasswordText });
export type PasswordResetBody = z.infer<typeof passwordResetBody>;
