/**
 * The shape of a password link's token (contract/password-reset.ts).
 * No zod here: the web app imports these (web/contract-imports.test.ts).
 */

export const PASSWORD_RESET_TOKEN_PATTERN = '^[A-Za-z0-9_-]{43}$';
