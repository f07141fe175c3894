import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useLanguage } from '@web/lib/i18n';
import { BarChart3 } from 'lucide-react';
import { BarElement, CategoryScale, Chart as ChartJS, LinearScale, Tooltip, type ChartOptions } from 'chart.js';
import { Bar } from 'react-chartjs-2';
import type { ProgressPoint } from '@contract/metrics';
import { Card, CardBody, CardHeader } from '@web/components/ui/card';
import { Skeleton } from '@web/components/ui/skeleton';
import { formatDate, formatPracticeTime } from '@web/lib/format';
import { chartSeries } from '../lib/progress';

// Tree-shaken: only the parts this bar chart uses (Bar registers its own controller).
ChartJS.register(CategoryScale, LinearScale, BarElement, Tooltip);

const BRAND = '#4f46e5';
const BRAND_HOVER = '#4338ca';
const GRID = '#e2e8f0';
const TICK = '#64748b';

/** Practice minutes per day over the last 30 days (progress_data of the metrics). */
export function PracticeChart({ data, loading, emptyText }: { data: readonly ProgressPoint[] | undefined; loading?: boolean; emptyText: string }) {
  const { t } = useTranslation('progress');
  const language = useLanguage();
  const series = useMemo(() => chartSeries(data ?? []), [data]);
  const total = useMemo(() => series.minutes.reduce((a, b) => a + b, 0), [series]);

  const options = useMemo<ChartOptions<'bar'>>(
    () => ({
      responsive: true,
      maintainAspectRatio: false,
      animation: false,
      plugins: {
        legend: { display: false },
        tooltip: {
          displayColors: false,
          callbacks: {
            title: (items) => formatDate(series.dates[items[0]?.dataIndex ?? 0] ?? ''),
            label: (item) => formatPracticeTime(Number(item.raw), language),
          },
        },
      },
      scales: {
        x: { grid: { display: false }, ticks: { color: TICK, maxRotation: 0, autoSkip: true, autoSkipPadding: 8, font: { size: 11 } } },
        y: {
          beginAtZero: true,
          grid: { color: GRID },
          border: { display: false },
          ticks: { color: TICK, precision: 0, font: { size: 11 } },
          title: { display: true, text: t('chart.label'), color: TICK, font: { size: 11 } },
        },
      },
    }),
    [series, t, language],
  );

  const chartData = useMemo(
    () => ({
      labels: series.labels,
      datasets: [
        {
          label: t('chart.label'),
          data: series.minutes,
          backgroundColor: BRAND,
          hoverBackgroundColor: BRAND_HOVER,
          borderRadius: 4,
          maxBarThickness: 22,
        },
      ],
    }),
    [series, t],
  );

  return (
    <Card>
      <CardHeader title={t('chart.title')} description={t('chart.subtitle')} />
      <CardBody>
        <div className="relative h-64 w-full min-w-0 sm:h-72">
          {loading ? (
            <Skeleton className="h-full w-full" />
          ) : !series.hasPractice ? (
            <div className="flex h-full flex-col items-center justify-center rounded-lg border border-dashed border-slate-300 px-6 text-center">
              <BarChart3 aria-hidden="true" className="mb-3 size-8 text-slate-400" />
              <p className="text-sm font-medium text-slate-700">{t('chart.empty')}</p>
              <p className="mt-1 max-w-sm text-sm text-slate-500">{emptyText}</p>
            </div>
          ) : (
            <Bar
              data={chartData}
              options={options}
              role="img"
              aria-label={t('chart.aria', { total: formatPracticeTime(total, language) })}
              data-testid="practice-chart"
            />
          )}
        </div>
      </CardBody>
    </Card>
  );
}
