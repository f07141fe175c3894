import { describe, expect, it } from 'vitest';
import { useLayoutEffect, useState } from 'react';
import { fireEvent, render, screen } from '@testing-library/react';
import { useOpening } from './use-opening';

/** A dialog's form in miniature: its field starts from `item` on each opening; what each commit shows is logged. */
function Form({ open, item, log }: { open: boolean; item: string; log: string[] }) {
  const [value, setValue] = useState('');
  const opening = useOpening(open, item);
  if (opening) setValue(item);
  useLayoutEffect(() => {
    log.push(`${open ? 'open' : 'closed'}:${value}`);
  });
  return <input aria-label="Feld" value={value} onChange={(e) => setValue(e.target.value)} />;
}

const field = () => screen.getByRole('textbox', { name: 'Feld' });

describe('useOpening', () => {
  it('starts each opening afresh from its first frame; closing keeps the values; another item while open resets', () => {
    const log: string[] = [];
    const { rerender } = render(<Form open={false} item="A" log={log} />);
    rerender(<Form open item="A" log={log} />);
    expect(field()).toHaveValue('A');
    fireEvent.change(field(), { target: { value: 'getippt' } });
    // closing: the text stays while the dialog animates out
    rerender(<Form open={false} item="A" log={log} />);
    expect(field()).toHaveValue('getippt');
    // opened again: fresh, and no frame shows the last opening's text
    log.length = 0;
    rerender(<Form open item="A" log={log} />);
    expect(field()).toHaveValue('A');
    expect(log).toEqual(['open:A']);
    // another item while open
    fireEvent.change(field(), { target: { value: 'mehr' } });
    log.length = 0;
    rerender(<Form open item="B" log={log} />);
    expect(field()).toHaveValue('B');
    expect(log).toEqual(['open:B']);
  });

  it('a dialog mounted open starts from its item', () => {
    const log: string[] = [];
    render(<Form open item="C" log={log} />);
    expect(log).toEqual(['open:C']);
  });
});
