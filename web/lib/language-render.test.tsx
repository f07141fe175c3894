import { afterEach, describe, expect, it } from 'vitest';
import { act, render, screen } from '@testing-library/react';
import { useTranslation } from 'react-i18next';
import { setLanguage, useLanguage } from './i18n';
import { formatPracticeTime } from './format';

/**
 * The React Compiler memoises what a render computes by its inputs (docs/decisions/react-dom-again.md):
 * a formatter that read the language from a global was left in German after a switch to Turkish
 * ('5 min' beside Turkish labels). The language is an input now.
 */
function Minutes({ minutes }: { minutes: number }) {
  const { t } = useTranslation('common');
  const language = useLanguage();
  return (
    <p data-testid="minutes">
      {formatPracticeTime(minutes, language)} · {t('actions.retry')}
    </p>
  );
}

describe('units follow a language switch in a compiled component', () => {
  afterEach(async () => {
    await act(() => setLanguage('de'));
  });
  it('German, then Turkish, without new props', async () => {
    render(<Minutes minutes={5} />);
    expect(screen.getByTestId('minutes')).toHaveTextContent('5 min · Erneut versuchen');
    await act(() => setLanguage('tr'));
    expect(screen.getByTestId('minutes')).toHaveTextContent('5 dk · Tekrar dene');
  });
});
