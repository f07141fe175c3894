import { afterEach, describe, expect, it } from 'vitest';
import { REVIEW_VIEW_ATTR, reviewKeyAction } from './review-keys';

afterEach(() => {
  document.body.innerHTML = '';
});

function on(target: Element | null, key: string, mods: Partial<{ altKey: boolean; ctrlKey: boolean; metaKey: boolean; repeat: boolean; defaultPrevented: boolean; isComposing: boolean }> = {}) {
  return reviewKeyAction({ key, target, altKey: false, ctrlKey: false, metaKey: false, repeat: false, defaultPrevented: false, isComposing: false, ...mods });
}

function make(html: string): HTMLElement {
  document.body.innerHTML = html;
  const el = document.querySelector<HTMLElement>('[data-here]');
  if (!el) throw new Error('no target');
  return el;
}

describe('reviewKeyAction', () => {
  it('maps J/K, Space, ←/→, C and Enter anywhere on the screen (the page, the player)', () => {
    const player = make('<div role="group" tabindex="0" data-here></div>');
    expect(on(document.body, 'j')).toBe('next');
    expect(on(document.body, 'J')).toBe('next');
    expect(on(document.body, 'k')).toBe('previous');
    expect(on(player, ' ')).toBe('toggle');
    expect(on(player, 'ArrowLeft')).toBe('back');
    expect(on(player, 'ArrowRight')).toBe('forward');
    expect(on(player, 'c')).toBe('comment');
    expect(on(player, 'Enter')).toBe('answer');
    expect(on(player, 'x')).toBeNull();
  });

  it('leaves typing alone: inputs, text areas, selects and editable text', () => {
    for (const html of ['<textarea data-here></textarea>', '<input data-here />', '<select data-here></select>', '<div contenteditable="true"><p data-here></p></div>']) {
      const el = make(html);
      for (const key of ['j', 'k', 'c', ' ', 'Enter', 'ArrowLeft']) expect(on(el, key), `${html} ${key}`).toBeNull();
    }
  });

  it('leaves Space and Enter to buttons and links, but J/K/C/arrows still work there', () => {
    const button = make('<button data-here>Nächste</button>');
    expect(on(button, ' ')).toBeNull();
    expect(on(button, 'Enter')).toBeNull();
    expect(on(button, 'j')).toBe('next');
    const link = make('<a href="/x"><span data-here>Zur Aufgabe</span></a>');
    expect(on(link, 'Enter')).toBeNull();
    expect(on(link, 'c')).toBe('comment');
  });

  it('waits while another dialog is open, but works in the review’s own full-screen view', () => {
    const own = make(`<div role="dialog" ${REVIEW_VIEW_ATTR}><div tabindex="0" data-here></div></div>`);
    expect(on(own, 'Enter')).toBe('answer');
    document.body.insertAdjacentHTML('beforeend', '<div role="dialog"><button>Löschen</button></div>');
    expect(on(own, 'j')).toBeNull();
    expect(on(document.body, 'c')).toBeNull();
  });

  it('ignores modified, handled, repeated (Enter, C) and composing key presses', () => {
    const player = make('<div tabindex="0" data-here></div>');
    expect(on(player, 'c', { ctrlKey: true })).toBeNull();
    expect(on(player, 'j', { metaKey: true })).toBeNull();
    expect(on(player, 'ArrowLeft', { altKey: true })).toBeNull();
    expect(on(player, ' ', { defaultPrevented: true })).toBeNull();
    expect(on(player, 'Enter', { repeat: true })).toBeNull();
    expect(on(player, 'c', { repeat: true })).toBeNull();
    expect(on(player, 'j', { isComposing: true })).toBeNull();
    // holding → keeps seeking
    expect(on(player, 'ArrowRight', { repeat: true })).toBe('forward');
  });
});
