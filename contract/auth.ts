import { z } from 'zod';
import { emailText, emailInput } from './common';

/** admin: the school's administration (Schulverwaltung); guardian: a parent who follows their children (docs/decisions/schools-and-roles.md). */
export const ROLES = ['admin', 'teacher', 'student', 'guardian'] as const;
export const roleSchema = z.object({ name: z.enum(ROLES) });

export const userSchema = z
  .object({
    id: z.number().int(),
    name: z.string(),
    email: emailText,
    role: roleSchema,
  })
  .meta({ id: 'User' });
export type User = z.infer<typeof userSchema>;

export const loginBody = z.object({
  email: emailInput(254),
  password: z.string().min(1).max(200),
});
export type LoginBody = z.infer<typeof loginBody>;

export const loginResponse = z.object({ token: z.string(), user: userSchema }).meta({ id: 'LoginResponse' });
export type LoginResponse = z.infer<typeof loginResponse>;
