import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { QueryClientProvider } from '@tanstack/react-query';
import { I18nextProvider } from 'react-i18next';
import i18n from '@web/lib/i18n';
import { queryClient } from '@web/lib/query-client';
import { createAppRouter } from '@web/app/router';
import './styles.css';

const router = createAppRouter();

// The first render as a transition: React draws it in small slices that let the browser paint
// and answer input in between, instead of one long task on a slow phone.
const root = createRoot(document.getElementById('root')!);
startTransition(() =>
  root.render(
    <StrictMode>
      <I18nextProvider i18n={i18n}>
        <QueryClientProvider client={queryClient}>
          <RouterProvider router={router} />
        </QueryClientProvider>
      </I18nextProvider>
    </StrictMode>,
  ),
);
