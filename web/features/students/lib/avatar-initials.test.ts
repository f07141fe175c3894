import { describe, expect, it } from 'vitest';
import { avatarInitials } from './avatar-initials';

describe('avatarInitials', () => {
  it.each([
    ['Ayşe Demir', 'AD'],
    ['ilker şahin', 'IŞ'],
    ['Zeynep', 'Z'],
    ['Anna Maria Schmidt', 'AMS'],
    ['Deniz Test Mwrt B.', 'DB'],
    ['', 'U'],
    [null, 'U'],
  ])('%s → %s', (name, expected) => {
    expect(avatarInitials(name)).toBe(expected);
  });
});
