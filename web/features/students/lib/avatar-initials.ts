import { initials } from '@web/lib/format';

/** Initials for the avatar: all of them up to three words, otherwise first and last (they must fit the circle). */
export function avatarInitials(name: string | null | undefined): string {
  const all = initials(name);
  return all.length > 3 ? `${all[0]}${all[all.length - 1]}` : all;
}
