import { describe, expect, it } from 'vitest';
import { appPath } from './app-path';

const origin = 'https://uebung.example';

describe('appPath: where a tapped notification may go', () => {
  it.each([
    '/\\evil.example/',
    '/\\evil.example',
    '/\t/evil.example/',
    '/\n/evil.example/',
    '/\\/evil.example/',
    '/\t\\evil.example',
    '\\\\evil.example',
    '//evil',
    '//evil.example/aufgaben/3',
    'https://evil',
    'https://evil.example/aufgaben/3',
    'javascript:alert(1)',
    ' /aufgaben/3',
    '',
  ])('opens the start page for %j', (hostile) => {
    expect(appPath(hostile, origin)).toBe('/');
    // The browser would go where the service worker then sends it: still the app.
    expect(new URL(appPath(hostile, origin), origin).origin).toBe(origin);
  });

  it.each([null, undefined, 3, { url: '/aufgaben/3' }])('opens the start page for a payload without a string (%j)', (v) => {
    expect(appPath(v, origin)).toBe('/');
  });

  it('keeps a path of the app with its query and fragment', () => {
    expect(appPath('/aufgaben/3?take=5', origin)).toBe('/aufgaben/3?take=5');
    expect(appPath('/aufgaben/3?take=5#comment-9', origin)).toBe('/aufgaben/3?take=5#comment-9');
    expect(appPath('/', origin)).toBe('/');
  });
});
