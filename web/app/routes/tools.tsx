import { useTranslation } from 'react-i18next';
import { PageHeader } from '@web/components/ui/page-header';
import { ToolsPanel } from '@web/features/tools/components/tools-panel';

/** /tools (every signed-in role): metronome, tuner and drone. */
export default function ToolsScreen() {
  const { t } = useTranslation('tools');
  return (
    <>
      <PageHeader title={t('page.title')} subtitle={t('page.subtitle')} />
      <ToolsPanel />
    </>
  );
}
